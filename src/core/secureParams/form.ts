// The secure values' form: the form engine's model of a tool's `secureInputSchema`, and its checks. Apart from
// index.ts so that the rules load without the schema validator.

import { buildForm, validateForm, type FormModel } from '../forms';
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

