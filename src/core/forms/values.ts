// Form values -> payload. One coercion path serves both validateForm and toPayload, so what is
// validated is exactly what is sent.

import type { FieldErrors, FormField, FormModel, FormValues, JsonValue } from '../../shared/formModel';
import { checkValue, compileSchema, describeAjvError } from './validate';
import { pointer } from './build';
import { isObject } from '../../shared/json';
import { getOwn } from '../io/own';
import { assertNever } from '../../shared/assertNever';

const ABSENT = Symbol('absent');
type Coerced = unknown | typeof ABSENT;

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (typeof b !== 'object' && String(a) === String(b)) || JSON.stringify(a) === JSON.stringify(b);
}

function coerce(field: FormField, value: unknown, errors: FieldErrors): Coerced {
  if (value === undefined) return ABSENT;
  if (value === null) return field.nullable ? null : ABSENT;
  switch (field.kind) {
    case 'file':
      return ABSENT; // file fields are filled by the file engine after the checks
    case 'string':
      if (typeof value !== 'string') return value;
      return value === '' && !field.required ? ABSENT : value;
    case 'number':
    case 'integer': {
      if (typeof value !== 'string') return value;
      const text = value.trim();
      if (text === '') return ABSENT;
      const n = Number(text);
      if (!Number.isFinite(n)) {
        errors[field.id] ??= `Must be ${field.kind === 'integer' ? 'a whole number' : 'a number'}.`;
        return value;
      }
      return n;
    }
    case 'boolean':
      if (value === 'true') return true;
      if (value === 'false') return false;
      return value;
    case 'enum': {
      if (value === '') return ABSENT;
      const option = field.options.find((o) => sameValue(value, o.value));
      return option ? option.value : value;
    }
    case 'multiEnum': {
      if (!Array.isArray(value)) return value;
      // An empty choice is left out unless the schema's own default is the empty list (then it is sent).
      const defaultIsEmpty = Array.isArray(field.default) && field.default.length === 0;
      if (value.length === 0 && !field.required && !defaultIsEmpty) return ABSENT;
      return value.map((v) => field.options.find((o) => sameValue(v, o.value))?.value ?? v);
    }
    case 'object': {
      if (!isObject(value)) return value;
      const out: Record<string, unknown> = {};
      for (const sub of field.fields) {
        const c = coerce(sub, value[sub.path[sub.path.length - 1]!], errors);
        if (c !== ABSENT) out[sub.path[sub.path.length - 1]!] = c;
      }
      return Object.keys(out).length === 0 && !field.required ? ABSENT : out;
    }
    case 'array': {
      if (!Array.isArray(value)) return value;
      const items = value.map((v) => coerce(field.item, v, errors)).filter((v) => v !== ABSENT);
      return items.length === 0 && !field.required ? ABSENT : items;
    }
    case 'variant': {
      if (typeof value !== 'string') return value;
      const kinds = new Set(field.variants.map((v) => v.kind));
      if (value === '') return kinds.has('string') && field.required ? value : ABSENT;
      if ((kinds.has('number') || kinds.has('integer')) && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
      if (kinds.has('boolean') && (value === 'true' || value === 'false')) return value === 'true';
      return value;
    }
    case 'json': {
      if (typeof value !== 'string') return value;
      if (value.trim() === '') return ABSENT;
      try {
        return JSON.parse(value) as JsonValue;
      } catch (e) {
        errors[field.id] ??= `Not valid JSON (${(e as Error).message}).`;
        return ABSENT;
      }
    }
    default:
      return assertNever(field, 'form field');
  }
}

function coerceAll(model: FormModel, values: FormValues, errors: FieldErrors): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of model.fields) {
    const key = field.path[field.path.length - 1]!;
    const c = coerce(field, isObject(values) ? getOwn(values, key) : undefined, errors);
    if (c !== ABSENT) out[key] = c;
  }
  return out;
}

function allFields(fields: readonly FormField[]): FormField[] {
  return fields.flatMap((f) => [f, ...(f.kind === 'object' ? allFields(f.fields) : [])]);
}

function valueAt(values: unknown, path: string[]): unknown {
  let v = values;
  for (const key of path) v = isObject(v) ? getOwn(v, key) : undefined;
  return v;
}

/** The defaults the form starts with (and sends when the user accepts without changing them). */
export function defaultValues(model: FormModel): FormValues {
  const fill = (fields: readonly FormField[]): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const f of fields) {
      const key = f.path[f.path.length - 1]!;
      if (f.default !== undefined && f.kind !== 'file') out[key] = structuredClone(f.default);
      else if (f.kind === 'object') {
        const nested = fill(f.fields);
        if (Object.keys(nested).length) out[key] = nested;
      }
    }
    return out;
  };
  return fill(model.fields);
}

/** The payload to send: values coerced to their schema types, empty optional values dropped, file fields left out. */
export function toPayload(model: FormModel, values: FormValues): Record<string, unknown> {
  return coerceAll(model, values, {});
}

function fieldIdFor(instancePath: string, ids: Set<string>): string {
  let at = instancePath;
  while (at && !ids.has(at)) at = at.slice(0, at.lastIndexOf('/'));
  return at;
}

/**
 * Checks values against the form's schema and returns one message per failing field (empty when valid).
 * A file field counts as filled when its value is a non-empty list (of picked files or paths).
 */
export function validateForm(model: FormModel, values: FormValues): FieldErrors {
  const errors: FieldErrors = {};
  const payload = coerceAll(model, values, errors);
  const fields = allFields(model.fields);
  const ids = new Set(fields.map((f) => f.id));

  for (const f of fields) {
    const v = valueAt(values, f.path);
    if (f.kind === 'file') {
      const picked = Array.isArray(v) ? v.length : v ? 1 : 0;
      if (f.required && picked === 0) errors[f.id] ??= 'Choose a file.';
      if (!f.multiple && picked > 1) errors[f.id] ??= 'Only one file is allowed.';
    } else if (f.required && f.kind === 'string' && v === '' && valueAt(values, f.path.slice(0, -1)) !== undefined) {
      errors[f.id] ??= 'Required.';
    }
  }

  const validate = model.validationUnavailable ? undefined : compileSchema(model.validationSchema);
  if (validate && typeof validate !== 'string') {
    for (const err of checkValue(validate, payload).errors) {
      const path =
        err.keyword === 'required' ? `${err.instancePath}${pointer([String((err.params as { missingProperty: unknown }).missingProperty)])}` : err.instancePath;
      const id = fieldIdFor(path, ids);
      const item = path !== id && path.startsWith(id + '/') ? `Entry ${Number(path.slice(id.length + 1).split('/')[0]) + 1}: ` : '';
      // oneOf/anyOf report one error per failing branch; the summary keyword says it better.
      if (['oneOf', 'anyOf'].includes(err.keyword)) {
        errors[id] = describeAjvError(err);
        continue;
      }
      errors[id] ??= item + describeAjvError(err);
    }
  }
  return errors;
}
