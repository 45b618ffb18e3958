// Schema -> FormModel. Servers are untrusted: any schema must yield a usable form, never a crash.
// Depth, field counts and text lengths are bounded; text is copied as text.

import type { EnumOption, FieldBase, FileField, FormField, FormModel, JsonField, JsonValue } from '../../shared/formModel';
import { compileSchema, uncheckedPatterns } from './validate';
import type { FileSlot } from '../files/slots';
import { promptArgumentFileSchema } from '../files/promptFiles';
import { isObject } from '../../shared/json';
import { MAX_REF_HOPS, resolveRef } from '../schemaRefs';
import { getOwn } from '../io/own';

/** The part of the file engine's FileSlot the form reads: where the slot is, its policy and its origin. */
export type FormFileSlot = Pick<FileSlot, 'path' | 'accept' | 'maxSize' | 'multiple'> & Partial<Pick<FileSlot, 'origin' | 'filenameCompanion'>>;

export const FORM_LIMITS = {
  /** Object/array levels rendered as widgets; deeper parts become JSON editors. */
  depth: 8,
  /** `$ref` hops followed for one field. */
  refHops: MAX_REF_HOPS,
  fields: 2000,
  optionsPerField: 1000,
  labelChars: 300,
  descriptionChars: 8000,
};

type Schema = Record<string, unknown>;

interface BuildContext {
  root: Schema;
  slots: Map<string, FormFileSlot>;
  warnings: string[];
  fieldCount: number;
  /** Pointers of fields removed from the validation schema (file fields). */
  filePaths: string[][];
}

export function pointer(path: string[]): string {
  return path.map((p) => '/' + p.replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

function boundedText(value: unknown, max: number, what: string, ctx: BuildContext): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.length <= max) return value;
  ctx.warnings.push(`A ${what} of ${value.length} characters was shortened to ${max}.`);
  return `${value.slice(0, max)}… [${value.length - max} more characters not shown]`;
}

function toJson(value: unknown): JsonValue | undefined {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(value)) as JsonValue;
  } catch {
    return undefined;
  }
}

function typesOf(schema: Schema): string[] {
  const t = schema.type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  return [];
}

const isNullSchema = (s: unknown): boolean => isObject(s) && (s.type === 'null' || s.const === null);

function constOptions(branches: unknown[], ctx: BuildContext): EnumOption[] | undefined {
  if (branches.length === 0 || !branches.every((b) => isObject(b) && 'const' in b)) return undefined;
  return (branches as Schema[]).slice(0, FORM_LIMITS.optionsPerField).map((b) => {
    const value = toJson(b.const) ?? null;
    return { value, label: boundedText(b.title, FORM_LIMITS.labelChars, 'option title', ctx) ?? optionLabel(value) };
  });
}

function optionLabel(value: JsonValue): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > FORM_LIMITS.labelChars ? `${text.slice(0, FORM_LIMITS.labelChars)}…` : text;
}

function enumOptions(schema: Schema, ctx: BuildContext): EnumOption[] | undefined {
  if (!Array.isArray(schema.enum) || schema.enum.length === 0) return undefined;
  const names = Array.isArray(schema.enumNames) && schema.enumNames.length === schema.enum.length ? schema.enumNames : undefined;
  if (schema.enum.length > FORM_LIMITS.optionsPerField) {
    ctx.warnings.push(`Only the first ${FORM_LIMITS.optionsPerField} of ${schema.enum.length} choices are shown.`);
  }
  return schema.enum.slice(0, FORM_LIMITS.optionsPerField).map((v, i) => {
    const value = toJson(v) ?? null;
    const name = names?.[i];
    return { value, label: boundedText(name, FORM_LIMITS.labelChars, 'option title', ctx) ?? optionLabel(value) };
  });
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const count = (v: unknown): number | undefined => (Number.isInteger(v) && (v as number) >= 0 ? (v as number) : undefined);

function isSimpleBranch(b: unknown): boolean {
  if (!isObject(b)) return false;
  const t = typesOf(b);
  return t.length === 1 && ['string', 'number', 'integer', 'boolean', 'object', 'array'].includes(t[0]!);
}

function fieldFor(raw: unknown, key: string, path: string[], required: boolean, depth: number, ctx: BuildContext): FormField {
  ctx.fieldCount++;
  const id = pointer(path);
  const schemaIn = isObject(raw) ? raw : {};
  const base: FieldBase = {
    id,
    path,
    required,
    nullable: false,
    label: boundedText(schemaIn.title, FORM_LIMITS.labelChars, 'title', ctx) ?? key,
  };
  const description = boundedText(schemaIn.description, FORM_LIMITS.descriptionChars, 'description', ctx);
  if (description !== undefined) base.description = description;
  const json = (reason: string): JsonField => {
    const d = toJson(schemaIn.default);
    return { ...base, ...(d !== undefined ? { default: d } : {}), kind: 'json', reason };
  };

  if (!isObject(raw)) return json(raw === true || raw === undefined ? 'Any JSON value.' : 'The schema for this value is not an object.');
  if (depth > FORM_LIMITS.depth) return json(`Nested more than ${FORM_LIMITS.depth} levels deep: edit it as JSON.`);

  const schema = resolveRef(ctx.root, raw, FORM_LIMITS.refHops);
  if (!schema) return json('The schema refers to a definition the host cannot resolve.');
  if (base.label === key && typeof schema.title === 'string') base.label = boundedText(schema.title, FORM_LIMITS.labelChars, 'title', ctx)!;
  if (base.description === undefined) {
    const d = boundedText(schema.description, FORM_LIMITS.descriptionChars, 'description', ctx);
    if (d !== undefined) base.description = d;
  }
  const def = toJson(schema.default);
  if (def !== undefined) base.default = def;
  if (schema.readOnly === true) base.readOnly = true;

  const slot = ctx.slots.get(id);
  if (slot || schema.type === 'file') {
    ctx.filePaths.push(path);
    const accept = slot?.accept ?? (Array.isArray(schema.accept) ? schema.accept.filter((a): a is string => typeof a === 'string') : []);
    const field: FileField = {
      ...base,
      kind: 'file',
      accept,
      multiple: slot ? slot.multiple === true : schema.multiple === true,
      transfer: slot && slot.origin !== 'binary-elicitation' ? 'inline' : 'upload',
    };
    const maxSize = slot ? slot.maxSize : count(schema.maxSize);
    if (maxSize !== undefined) field.maxSize = maxSize;
    if (slot?.filenameCompanion) field.filenameField = pointer(slot.filenameCompanion);
    return field;
  }

  let types = typesOf(schema);
  if (types.includes('null')) {
    base.nullable = true;
    types = types.filter((t) => t !== 'null');
  }

  const union = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (union) {
    const branches = union.filter((b) => !isNullSchema(b));
    if (branches.length < union.length) base.nullable = true;
    const options = constOptions(branches, ctx);
    if (options) return { ...base, kind: 'enum', options };
    if (branches.length === 1 && isObject(branches[0])) {
      const { oneOf: _o, anyOf: _a, ...rest } = schema;
      const merged = fieldFor({ ...rest, ...branches[0] }, key, path, required, depth, ctx);
      ctx.fieldCount--;
      return {
        ...merged,
        nullable: merged.nullable || base.nullable,
        label: base.label,
        ...(base.description !== undefined ? { description: base.description } : {}),
      };
    }
    if (branches.length > 0 && branches.length <= 10 && branches.every(isSimpleBranch) && types.length === 0) {
      const variants = branches.map((b, i) => {
        const f = fieldFor(b, `${i + 1}`, path, required, depth + 1, ctx);
        const t = typesOf(b as Schema)[0]!;
        return { ...f, label: typeof (b as Schema).title === 'string' ? f.label : t };
      });
      return { ...base, kind: 'variant', variants };
    }
    return json('A choice between schemas the form cannot show as fields.');
  }
  if (schema.allOf !== undefined || schema.if !== undefined || schema.not !== undefined) {
    return json('A combined schema (allOf/if/not): edit it as JSON.');
  }

  const options = enumOptions(schema, ctx);
  if (options) return { ...base, kind: 'enum', options };
  if ('const' in schema) return { ...base, kind: 'enum', options: [{ value: toJson(schema.const) ?? null, label: optionLabel(toJson(schema.const) ?? null) }] };

  if (types.length === 0 && isObject(schema.properties)) types = ['object'];
  if (types.length !== 1) return json(types.length ? `A value of type ${types.join(' or ')}.` : 'Any JSON value.');

  switch (types[0]) {
    case 'string': {
      const f = { ...base, kind: 'string' as const };
      const min = count(schema.minLength);
      const max = count(schema.maxLength);
      return {
        ...f,
        ...(min !== undefined ? { minLength: min } : {}),
        ...(max !== undefined ? { maxLength: max } : {}),
        ...(typeof schema.format === 'string' ? { format: schema.format } : {}),
        ...(typeof schema.pattern === 'string' ? { pattern: schema.pattern } : {}),
        ...(schema.format === 'password' || schema.writeOnly === true ? { secret: true } : {}),
      };
    }
    case 'number':
    case 'integer': {
      const out: FormField = { ...base, kind: types[0], ...(schema.format === 'password' || schema.writeOnly === true ? { secret: true } : {}) };
      for (const k of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const) {
        const v = num(schema[k]);
        if (v !== undefined) out[k] = v;
      }
      return out;
    }
    case 'boolean':
      return { ...base, kind: 'boolean' };
    case 'object': {
      if (!isObject(schema.properties) || Object.keys(schema.properties).length === 0) {
        return json('An object with free-form keys.');
      }
      return { ...base, kind: 'object', fields: objectFields(schema, path, depth + 1, ctx) };
    }
    case 'array': {
      const items = isObject(schema.items) ? resolveRef(ctx.root, schema.items, FORM_LIMITS.refHops) : undefined;
      const minItems = count(schema.minItems);
      const maxItems = count(schema.maxItems);
      const bounds = { ...(minItems !== undefined ? { minItems } : {}), ...(maxItems !== undefined ? { maxItems } : {}) };
      if (items) {
        const choices = enumOptions(items, ctx) ?? constOptions(Array.isArray(items.anyOf) ? items.anyOf : Array.isArray(items.oneOf) ? items.oneOf : [], ctx);
        if (choices) return { ...base, ...bounds, kind: 'multiEnum', options: choices };
        const itemTypes = typesOf(items).filter((t) => t !== 'null');
        if (itemTypes.length === 1 && ['string', 'number', 'integer', 'boolean'].includes(itemTypes[0]!)) {
          const item = fieldFor(items, 'item', [...path, '*'], true, depth + 1, ctx);
          return { ...base, ...bounds, kind: 'array', item };
        }
      }
      return json('A list of values the form cannot show as fields.');
    }
    default:
      return json(`A value of type ${types[0]}.`);
  }
}

function objectFields(schema: Schema, path: string[], depth: number, ctx: BuildContext): FormField[] {
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
  const fields: FormField[] = [];
  for (const [key, sub] of Object.entries(props)) {
    if (ctx.fieldCount >= FORM_LIMITS.fields) {
      ctx.warnings.push(`The form shows only the first ${FORM_LIMITS.fields} fields.`);
      break;
    }
    fields.push(fieldFor(sub, key, [...path, key], required.has(key), depth, ctx));
  }
  return fields;
}

function withoutFileFields(schema: Schema, paths: string[][]): Schema {
  const copy = toJson(schema) as Schema;
  for (const path of paths) {
    let parent: unknown = copy;
    for (const key of path.slice(0, -1)) {
      parent = isObject(parent) && isObject(parent.properties) ? getOwn(parent.properties, key) : undefined;
    }
    const last = path[path.length - 1]!;
    if (isObject(parent) && isObject(parent.properties)) {
      delete parent.properties[last];
      if (Array.isArray(parent.required)) parent.required = parent.required.filter((r) => r !== last);
    }
  }
  return copy;
}

/**
 * Builds the form for a tool's `inputSchema` or an elicitation's `requestedSchema`.
 * `fileSlots` (from the file engine) turn their properties into file fields; SEP-1306
 * `type: "file"` properties become upload fields on their own.
 */
export function buildForm(schema: unknown, fileSlots: readonly FormFileSlot[] = []): FormModel {
  const root: Schema = isObject(schema) ? schema : {};
  const ctx: BuildContext = {
    root,
    warnings: [],
    fieldCount: 0,
    filePaths: [],
    slots: new Map(fileSlots.map((s) => [pointer(s.path), s])),
  };
  if (!isObject(schema)) ctx.warnings.push('The server sent no usable schema; the form is empty.');
  let fields: FormField[];
  try {
    fields = objectFields(root, [], 1, ctx);
  } catch (e) {
    // A guard, not a path: building is written not to throw. Keep the host usable regardless.
    fields = [];
    ctx.warnings.push(`The form could not be built from the schema: ${(e as Error).message}`);
  }
  const model: FormModel = {
    fields,
    validationSchema: withoutFileFields(root, ctx.filePaths) as Record<string, JsonValue>,
    warnings: [...new Set(ctx.warnings)],
  };
  const title = boundedText(root.title, FORM_LIMITS.labelChars, 'title', ctx);
  if (title !== undefined) model.title = title;
  const description = boundedText(root.description, FORM_LIMITS.descriptionChars, 'description', ctx);
  if (description !== undefined) model.description = description;
  const compiled = compileSchema(model.validationSchema);
  if (typeof compiled === 'string') {
    model.validationUnavailable = compiled;
    model.warnings.push(`Values can only be checked field by field: ${compiled}`);
  } else {
    model.warnings.push(...uncheckedPatterns(compiled).map((sentence) => `${sentence} The server checks it.`));
  }
  return model;
}

/**
 * A prompt's arguments (prompts/list: strings, some required) as the object schema buildForm takes; an argument
 * marked as a file (`x-mcp-file`) is a string/uri file field, sent inline.
 */
export function promptArgumentsSchema(args: unknown): Record<string, unknown> {
  const list = Array.isArray(args) ? args.filter((a): a is Record<string, unknown> => isObject(a) && typeof a.name === 'string' && a.name !== '') : [];
  const properties: Record<string, unknown> = {};
  for (const a of list) {
    properties[a.name as string] = {
      ...(promptArgumentFileSchema(a) ?? { type: 'string' }),
      ...(typeof a.title === 'string' ? { title: a.title } : {}),
      ...(typeof a.description === 'string' ? { description: a.description } : {}),
    };
  }
  return { type: 'object', properties, required: list.filter((a) => a.required === true).map((a) => a.name as string) };
}

/** A prompt as the file engine sees a tool: its arguments as an object schema, file arguments as slots. */
export function promptAsTool(prompt: { name: string; arguments?: unknown }): { name: string; inputSchema: Record<string, unknown> } {
  return { name: prompt.name, inputSchema: promptArgumentsSchema(prompt.arguments) };
}
