// JSON Schema validation for form values and tool output. Server schemas are loose: unknown
// keywords (enumNames, x-mcp-file, ...) are ignored, draft-07 schemas are honoured, and a schema
// that does not compile is reported, never thrown.

import type Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';

const KNOWN_KEYWORDS = ['x-mcp-file', 'x-mcp-header', 'mcpFile', 'x-mcp-file-mode', 'enumNames'];

function configure<T extends Ajv>(ajv: T, addFormats: (ajv: Ajv) => unknown): T {
  addFormats(ajv);
  for (const keyword of KNOWN_KEYWORDS) ajv.addKeyword({ keyword, schemaType: ['object', 'string', 'boolean', 'array'] });
  return ajv;
}

/** A quantified group that itself holds a quantifier: `(a+)+`, `(\\w*)*`, `(x|y+){2,}`. */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)(?:[+*]|\{\d+,)/;

/**
 * Server `pattern`s run on what the user types. One with nested quantifiers can backtrack for
 * minutes on a short input and freeze the host, so it is not asserted locally (the server still checks).
 */
function serverPattern(pattern: string, flags: string): { test(value: string): boolean } {
  return NESTED_QUANTIFIER.test(pattern) ? { test: () => true } : new RegExp(pattern, flags);
}
serverPattern.code = 'new RegExp';

// addUsedSchema:false lets two schemas share an `$id` (servers reuse them freely).
const options = {
  strict: false, allErrors: true, validateSchema: false, addUsedSchema: false, logger: false,
  code: { regExp: serverPattern },
} as const;

let validators: { draft2020: Ajv; draft07: Ajv } | undefined;

/** Ajv is loaded (core/libraries) and set up on the first schema compiled: the extension's activation need not pay for it. */
function loadValidators(): { draft2020: Ajv; draft07: Ajv } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous load on first use
  const { Ajv2020, AjvDraft07, addFormats } = require('../libraries') as typeof import('../libraries');
  return { draft2020: configure(new Ajv2020(options), addFormats), draft07: configure(new AjvDraft07(options), addFormats) };
}

const cache = new WeakMap<object, ValidateFunction | string>();

/** Draft-04/06/07 schemas go to the draft-07 validator; everything else is validated as 2020-12. */
function validatorFor(schema: object): Ajv {
  validators ??= loadValidators();
  const declared = (schema as { $schema?: unknown }).$schema;
  return typeof declared === 'string' && /draft-0[4-7]/.test(declared) ? validators.draft07 : validators.draft2020;
}

/** Compiles `schema` once (cached per schema object); a string is the reason it could not be compiled. */
export function compileSchema(schema: unknown): ValidateFunction | string {
  if (typeof schema === 'boolean') return compileSchema(schema ? {} : { not: {} });
  if (typeof schema !== 'object' || schema === null) return 'the schema is not an object';
  const hit = cache.get(schema);
  if (hit) return hit;
  let out: ValidateFunction | string;
  try {
    const { $schema: _s, ...rest } = schema as Record<string, unknown>;
    out = validatorFor(schema).compile(rest);
  } catch (e) {
    out = `the schema is invalid (${String((e as Error).message).slice(0, 300)})`;
  }
  cache.set(schema, out);
  return out;
}

const FORMAT_NAMES: Record<string, string> = {
  email: 'an email address',
  uri: 'a full URI (for example https://example.com)',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date and time (for example 2026-01-31T12:00:00Z)',
  time: 'a time (HH:MM:SS)',
};

/** One readable sentence for an Ajv error (no instance path: the caller knows the field). */
export function describeAjvError(err: ErrorObject): string {
  const p = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case 'required': return 'Required.';
    case 'type': return `Must be ${/^[aeiou]/.test(String(p.type)) ? 'an' : 'a'} ${String(p.type)}.`;
    case 'minLength': return `Must be at least ${String(p.limit)} characters long.`;
    case 'maxLength': return `Must be at most ${String(p.limit)} characters long.`;
    case 'minimum': return `Must be at least ${String(p.limit)}.`;
    case 'maximum': return `Must be at most ${String(p.limit)}.`;
    case 'exclusiveMinimum': return `Must be greater than ${String(p.limit)}.`;
    case 'exclusiveMaximum': return `Must be less than ${String(p.limit)}.`;
    case 'multipleOf': return `Must be a multiple of ${String(p.multipleOf)}.`;
    case 'minItems': return `Choose at least ${String(p.limit)}.`;
    case 'maxItems': return `Choose at most ${String(p.limit)}.`;
    case 'uniqueItems': return 'Each entry must be different.';
    case 'format': return `Must be ${FORMAT_NAMES[String(p.format)] ?? `in the format ${String(p.format)}`}.`;
    case 'enum': return 'Must be one of the listed choices.';
    case 'const': return 'Must be the fixed value.';
    case 'pattern': return `Must match the pattern ${String(p.pattern)}.`;
    case 'additionalProperties': return `Unexpected property "${String(p.additionalProperty)}".`;
    default: return `${(err.message ?? 'is not valid').replace(/^must/, 'Must')}.`;
  }
}

/** Ajv errors as `path: sentence` lines (for results and logs). */
export function ajvMessages(errors: readonly ErrorObject[] | null | undefined, max = 20): string[] {
  return (errors ?? []).slice(0, max).map((e) => {
    const at = e.keyword === 'required' ? `${e.instancePath}/${String((e.params as { missingProperty?: unknown }).missingProperty)}` : e.instancePath;
    return `${at || '(root)'}: ${describeAjvError(e)}`;
  });
}
