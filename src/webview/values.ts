// Reading and writing form values by path, and the client-side checks that need no schema
// validator (required, lengths, bounds, item counts, JSON syntax). The host's `validate`
// request runs the full check; these give instant feedback while typing. Pure: no DOM.

import type { FieldErrors, FormField, FormModel, FormValues } from '../shared/formModel';
import type { ChosenFiles } from '../shared/protocol';
import { isObject } from '../shared/json';

/** Keys from the root of the values to one value; numbers index arrays. */
export type ValuePath = (string | number)[];

/** The last key of a field's path: where its value sits inside its parent object. */
export function keyOf(field: FormField): string {
  return field.path[field.path.length - 1] ?? '';
}

export function getAt(values: unknown, path: ValuePath): unknown {
  let v = values;
  for (const key of path) {
    if (typeof key === 'number') v = Array.isArray(v) ? v[key] : undefined;
    else v = isObject(v) ? v[key] : undefined;
  }
  return v;
}

/** Sets (or, for `undefined`, deletes) the value at `path`, creating objects and arrays on the way. */
export function setAt(values: FormValues, path: ValuePath, value: unknown): void {
  if (path.length === 0) return;
  let parent: Record<string, unknown> | unknown[] = values;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    const nextIsIndex = typeof path[i + 1] === 'number';
    const current: unknown = Array.isArray(parent) ? parent[key as number] : parent[key as string];
    if (!isObject(current) && !Array.isArray(current)) {
      const created: Record<string, unknown> | unknown[] = nextIsIndex ? [] : {};
      if (Array.isArray(parent)) parent[key as number] = created;
      else parent[key as string] = created;
      parent = created;
    } else {
      parent = current;
    }
  }
  const last = path[path.length - 1]!;
  if (Array.isArray(parent)) parent[last as number] = value;
  else if (value === undefined) delete parent[last as string];
  else parent[last as string] = value;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === '';
}

function numberValue(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The first problem with one value, or undefined. */
function checkValue(field: FormField, value: unknown, parentPresent: boolean, files: ChosenFiles): string | undefined {
  if (field.kind === 'file') {
    const count = files[field.id]?.length ?? 0;
    if (field.required && parentPresent && count === 0) return 'Choose a file.';
    return undefined;
  }
  if (value === null && field.nullable) return undefined;
  if (isEmpty(value)) return field.required && parentPresent && field.kind !== 'boolean' ? 'Required.' : undefined;
  switch (field.kind) {
    case 'string': {
      if (typeof value !== 'string') return undefined;
      const length = Array.from(value).length;
      if (field.minLength !== undefined && length < field.minLength) return `At least ${plural(field.minLength, 'character')}.`;
      if (field.maxLength !== undefined && length > field.maxLength) return `At most ${plural(field.maxLength, 'character')}.`;
      return undefined;
    }
    case 'number':
    case 'integer': {
      const n = numberValue(value);
      if (n === undefined) return field.kind === 'integer' ? 'Must be a whole number.' : 'Must be a number.';
      if (field.kind === 'integer' && !Number.isInteger(n)) return 'Must be a whole number.';
      if (field.minimum !== undefined && n < field.minimum) return `Must be at least ${field.minimum}.`;
      if (field.maximum !== undefined && n > field.maximum) return `Must be at most ${field.maximum}.`;
      if (field.exclusiveMinimum !== undefined && n <= field.exclusiveMinimum) return `Must be more than ${field.exclusiveMinimum}.`;
      if (field.exclusiveMaximum !== undefined && n >= field.exclusiveMaximum) return `Must be less than ${field.exclusiveMaximum}.`;
      return undefined;
    }
    case 'multiEnum':
    case 'array': {
      if (!Array.isArray(value)) return undefined;
      if (field.minItems !== undefined && value.length < field.minItems) return `Choose at least ${plural(field.minItems, 'item')}.`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `Choose at most ${plural(field.maxItems, 'item')}.`;
      if (field.kind === 'array') {
        for (let i = 0; i < value.length; i++) {
          const problem = checkValue(field.item, value[i], true, files);
          if (problem) return `Entry ${i + 1}: ${problem}`;
        }
      }
      return undefined;
    }
    case 'json': {
      if (typeof value !== 'string') return undefined;
      try {
        JSON.parse(value);
        return undefined;
      } catch (e) {
        return `Not valid JSON (${(e as Error).message}).`;
      }
    }
    default:
      return undefined;
  }
}

function checkFields(fields: readonly FormField[], parent: unknown, parentPresent: boolean, files: ChosenFiles, errors: FieldErrors): void {
  for (const field of fields) {
    const value = isObject(parent) ? parent[keyOf(field)] : undefined;
    if (field.kind === 'object') {
      checkFields(field.fields, value, isObject(value) || (parentPresent && field.required), files, errors);
      continue;
    }
    const problem = checkValue(field, value, parentPresent, files);
    if (problem) errors[field.id] ??= problem;
  }
}

/** Problems found without the schema validator, keyed by field id. */
export function clientErrors(model: FormModel, values: FormValues, files: ChosenFiles = {}): FieldErrors {
  const errors: FieldErrors = {};
  checkFields(model.fields, values, true, files, errors);
  return errors;
}

/** Every file field of the model, nested objects included. */
export function fileFields(fields: readonly FormField[]): FormField[] {
  return fields.flatMap((f) => (f.kind === 'file' ? [f] : f.kind === 'object' ? fileFields(f.fields) : []));
}

/** A copy of `values` without the values of secret fields (what may be persisted in webview state). */
export function withoutSecrets(fields: readonly FormField[], values: FormValues): FormValues {
  const out: FormValues = { ...values };
  for (const field of fields) {
    const key = keyOf(field);
    if ((field.kind === 'string' || field.kind === 'number' || field.kind === 'integer') && field.secret) delete out[key];
    else if (field.kind === 'object' && isObject(out[key])) out[key] = withoutSecrets(field.fields, out[key]);
  }
  return out;
}
