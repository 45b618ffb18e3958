// The form that asks for a server's inputs, as a JSON schema for the shared form builder.
// No `vscode` import: tested in plain Node.

import type { InputDefinition } from '../../core/config';

export function isSecret(input: InputDefinition): boolean {
  return input.type === 'promptString' && input.password === true;
}

/** The JSON schema of the inputs form; a secret already stored may be left empty to keep it. */
export function inputsSchema(inputs: InputDefinition[], keptSecrets: ReadonlySet<string>): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const input of inputs) {
    const prop: Record<string, unknown> = { type: 'string', title: input.id };
    const kept = keptSecrets.has(input.id);
    // "The demo token. A value is stored…", not "The demo token A value is stored…"
    const own = kept && input.description && !/[.!?:]$/.test(input.description.trim()) ? `${input.description.trim()}.` : input.description;
    const description = [own, kept ? 'A value is stored; leave empty to keep it.' : undefined].filter(Boolean).join(' ');
    if (description) prop.description = description;
    if (input.type === 'pickString' && input.options?.length) prop.enum = input.options;
    if (isSecret(input)) prop.format = 'password';
    if (input.default !== undefined && !isSecret(input)) prop.default = input.default;
    if (input.default === undefined && !kept) required.push(input.id);
    properties[input.id] = prop;
  }
  return { type: 'object', properties, required };
}
