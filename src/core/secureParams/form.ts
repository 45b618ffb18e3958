// The secure values' form: the form engine's model of a tool's `secureInputSchema`, and its checks. Apart from
// index.ts so that the rules load without the schema validator.

import { buildForm, validateForm, type FormModel } from '../forms';
import { SECURE_FIELD_PREFIX } from '../../shared/protocol';
import { secureInputSchemaOf, type SecureArguments } from '.';

/** The form of a tool's secure values: the form engine's model of `secureInputSchema`. */
export function secureForm(tool: unknown): FormModel | undefined {
  const schema = secureInputSchemaOf(tool);
  return schema ? buildForm(schema) : undefined;
}

/**
 * What is wrong with the secure values for this tool, one line per value ("tenant: Required."), checked by the
 * form engine against its `secureInputSchema`; empty when they may be sent.
 */
export function secureValueProblems(tool: unknown, values: SecureArguments): string[] {
  const form = secureForm(tool);
  if (!form) return [];
  return Object.entries(validateForm(form, values)).map(([id, message]) => `${id.replace(/^\//, '') || 'secure values'}: ${message}`);
}

/**
 * The schema of the secure values' section of a form: the tool's `secureInputSchema` without the values the
 * configuration sets (mcp.json), and with each remembered value optional ("kept; leave empty to keep it"). No
 * remembered value is ever put in the form: the section shows that one is kept, not what it is.
 */
export function secureSectionSchema(tool: unknown, kept: ReadonlySet<string>, configured: ReadonlySet<string>): Record<string, unknown> | undefined {
  const schema = secureInputSchemaOf(tool);
  if (!schema) return undefined;
  const properties: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (configured.has(name)) continue;
    if (!kept.has(name) || typeof property !== 'object' || property === null) {
      properties[name] = property;
      continue;
    }
    const own = (property as { description?: unknown }).description;
    const text = typeof own === 'string' && own.trim() ? `${own.trim().replace(/[.!?:]$/, '')}. ` : '';
    const { default: _default, ...rest } = property as Record<string, unknown>;
    properties[name] = { ...rest, description: `${text}Kept for this workspace; leave empty to keep it.` };
  }
  const required = (Array.isArray(schema.required) ? schema.required : []).filter((n) => typeof n === 'string' && Object.hasOwn(properties, n) && !kept.has(n));
  return { ...schema, properties, required };
}

/** The errors of the secure values (the form engine's, by field id), each id marked as the secure section's. */
export function secureSectionErrors(tool: unknown, values: SecureArguments): Record<string, string> {
  const form = secureForm(tool);
  if (!form) return {};
  return Object.fromEntries(Object.entries(validateForm(form, values)).map(([id, message]) => [`${SECURE_FIELD_PREFIX}${id}`, message]));
}
