// JSON Schema validation for form values and tool output. Server schemas are loose: unknown
// keywords (enumNames, x-mcp-file, ...) are ignored, draft-07 schemas are honoured, and a schema
// that does not compile is reported, never thrown.

import type Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { jsonShape } from '../io/json';
import { SCHEMA_LIMITS } from '../io/limits';

const KNOWN_KEYWORDS = ['x-mcp-file', 'x-mcp-header', 'mcpFile', 'x-mcp-file-mode', 'enumNames'];

function configure<T extends Ajv>(ajv: T, addFormats: (ajv: Ajv) => unknown): T {
  addFormats(ajv);
  for (const keyword of KNOWN_KEYWORDS) ajv.addKeyword({ keyword, schemaType: ['object', 'string', 'boolean', 'array'] });
  return ajv;
}

/** Why a valid JavaScript pattern is not run: the linear-time engine cannot express it. */
const UNCHECKED_WHY =
  "the host runs a server's patterns only on a linear-time engine, which cannot express this one (lookaround, a backreference, or a repeat count over 1000)";

interface PatternTest {
  test(value: string): boolean;
  unchecked: boolean;
  toString(): string;
}
const patterns = new Map<string, PatternTest>();
/** What the patterns of the current `checkValue` may still read (undefined outside one). */
let patternBudget: { left: number; exhausted: boolean } | undefined;
/** Patterns the schema being compiled holds that cannot be run (undefined outside `compileSchema`). */
let compiling: Set<string> | undefined;

/**
 * Server `pattern`s (and `patternProperties`) run on what users type and what servers return, so they run on a
 * linear-time engine (re2js): no input can make one backtrack. A pattern JavaScript rejects makes the schema
 * invalid, as before; one only backtracking can run passes (`pattern`), or is left out (`patternProperties`, see
 * `withRunnablePatternKeys`), and is reported as not checked (`uncheckedPatterns`).
 */
function serverPattern(pattern: string, flags: string): PatternTest {
  const key = `/${pattern}/${flags}`;
  let test = patterns.get(key);
  if (!test) {
    test = patternTest(pattern, flags, key);
    if (patterns.size >= 1000) patterns.delete(patterns.keys().next().value!);
    patterns.set(key, test);
  }
  if (test.unchecked) compiling?.add(pattern);
  return test;
}

function patternTest(pattern: string, flags: string, key: string): PatternTest {
  new RegExp(pattern, flags); // a syntax check only (it throws on an invalid pattern); nothing is matched with it
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded with Ajv, on the first schema compiled
  const { RE2JS } = require('../libraries') as typeof import('../libraries');
  // Ajv keeps one test per `toString()`: it must name the pattern.
  const toString = () => key;
  try {
    const re = RE2JS.compile(withJsMeaning(RE2JS.translateRegExp(pattern)), flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
    return {
      test: (value) => {
        if (patternBudget) {
          if (value.length > patternBudget.left) {
            patternBudget.exhausted = true;
            return true;
          }
          patternBudget.left -= value.length;
        }
        return re.test(value);
      },
      unchecked: false,
      toString,
    };
  } catch {
    return { test: () => true, unchecked: true, toString };
  }
}
serverPattern.code = 'new RegExp';

/** JavaScript's `\s` (Unicode spaces and line ends); RE2's is ASCII only. */
const JS_SPACES = '\\t\\n\\x0B\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';

/**
 * An RE2 pattern whose `\s`, `\S` and `.` mean what they mean in JavaScript: Unicode spaces, and any character but
 * a line end (`\S` inside a class is left as RE2's).
 */
function withJsMeaning(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      const next = pattern[++i]!;
      if (next === 's') out += inClass ? JS_SPACES : `[${JS_SPACES}]`;
      else if (next === 'S' && !inClass) out += `[^${JS_SPACES}]`;
      else out += c + next;
      continue;
    }
    if (c === '.' && !inClass) {
      out += '[^\\n\\r\\x{2028}\\x{2029}]';
      continue;
    }
    if (c === '[' && !inClass) inClass = true;
    else if (c === ']' && inClass) inClass = false;
    out += c;
  }
  return out;
}

// addUsedSchema:false lets two schemas share an `$id` (servers reuse them freely).
const options = {
  strict: false,
  allErrors: true,
  validateSchema: false,
  addUsedSchema: false,
  logger: false,
  code: { regExp: serverPattern },
} as const;

let validators: { draft2020: Ajv; draft07: Ajv } | undefined;

/** Ajv is loaded (core/libraries) and set up on the first schema compiled: the extension's activation need not pay for it. */
function loadValidators(): { draft2020: Ajv; draft07: Ajv } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous load on first use
  const { Ajv2020, AjvDraft07, addFormats } = require('../libraries') as typeof import('../libraries');
  return { draft2020: configure(new Ajv2020(options), addFormats), draft07: configure(new AjvDraft07(options), addFormats) };
}

/** By schema object (a tool's schema while its listing stands) and by schema text (the same schema listed again). */
const byObject = new WeakMap<object, ValidateFunction | string>();
const byText = new Map<string, ValidateFunction | string>();

/** Draft-04/06/07 schemas go to the draft-07 validator; everything else is validated as 2020-12. */
function validatorFor(schema: object): Ajv {
  validators ??= loadValidators();
  const declared = (schema as { $schema?: unknown }).$schema;
  return typeof declared === 'string' && /draft-0[4-7]/.test(declared) ? validators.draft07 : validators.draft2020;
}

/** Why `schema` is not compiled (too large or too deep for the host's limits), or undefined. */
export function schemaSizeProblem(schema: object): string | undefined {
  const shape = jsonShape(schema, SCHEMA_LIMITS.maxDepth, SCHEMA_LIMITS.maxValues);
  if (shape.tooMany) return `the schema has more than ${SCHEMA_LIMITS.maxValues.toLocaleString('en-US')} values, the most the host checks against`;
  if (shape.tooDeep) return `the schema nests more than ${SCHEMA_LIMITS.maxDepth} levels deep, the most the host checks against`;
  return undefined;
}

/**
 * Compiles `schema` once (cached per schema object, and per schema text for the same schema sent again); a
 * string is the reason it could not be compiled, or is not (over the host's size limits, checked before
 * any compiling).
 */
export function compileSchema(schema: unknown): ValidateFunction | string {
  if (typeof schema === 'boolean') return compileSchema(schema ? {} : { not: {} });
  if (typeof schema !== 'object' || schema === null) return 'the schema is not an object';
  const hit = byObject.get(schema);
  if (hit) return hit;
  const tooLarge = schemaSizeProblem(schema);
  const text = tooLarge ? undefined : JSON.stringify(schema);
  let out = tooLarge ?? byText.get(text!);
  if (out === undefined) {
    compiling = new Set();
    try {
      const { $schema: _s, ...rest } = schema as Record<string, unknown>;
      out = validatorFor(schema).compile(withRunnablePatternKeys(rest) as Record<string, unknown>);
      if (compiling.size) uncheckedByValidator.set(out, [...compiling].slice(0, 20).map(uncheckedSentence));
    } catch (e) {
      out = `the schema is invalid (${String((e as Error).message).slice(0, 300)})`;
    } finally {
      compiling = undefined;
    }
  }
  if (text !== undefined) {
    byText.delete(text);
    byText.set(text, out);
    if (byText.size > SCHEMA_LIMITS.cachedValidators) byText.delete(byText.keys().next().value!);
  }
  byObject.set(schema, out);
  return out;
}

const uncheckedByValidator = new WeakMap<ValidateFunction, string[]>();
const uncheckedSentence = (p: string) => `The pattern ${p.length > 200 ? `${p.slice(0, 200)}…` : p} is not checked: ${UNCHECKED_WHY}.`;

/** One sentence per pattern of the compiled schema that is never run ("The pattern … is not checked: …"). */
export function uncheckedPatterns(validate: ValidateFunction): string[] {
  return uncheckedByValidator.get(validate) ?? [];
}

export interface ValueCheck {
  valid: boolean;
  errors: ErrorObject[];
  /** One sentence per pattern of the schema that is not run ("The pattern … is not checked: …"). */
  unchecked: string[];
}

/** Runs a compiled schema on `value`, with the patterns it does not check. */
export function checkValue(validate: ValidateFunction, value: unknown): ValueCheck {
  const outer = patternBudget;
  const budget = { left: SCHEMA_LIMITS.patternChars, exhausted: false };
  patternBudget = budget;
  try {
    const valid = validate(value);
    const unchecked = uncheckedPatterns(validate);
    return {
      valid,
      errors: [...(validate.errors ?? [])],
      unchecked: budget.exhausted ? [...unchecked, PAST_BUDGET] : unchecked,
    };
  } finally {
    patternBudget = outer;
  }
}

const PAST_BUDGET = `Some patterns were not checked: the value holds more than the ${SCHEMA_LIMITS.patternChars / 1024 / 1024} MiB of text the host matches patterns on in one check.`;

/**
 * The schema without the `patternProperties` entries the engine cannot run (a copy of what changes only).
 * Matching every key, such an entry would check keys it does not name; matching none, it would make them
 * "unexpected": so it is left out, and `additionalProperties`/`unevaluatedProperties` beside it too (which
 * keys are additional cannot be told). Runs after the size check, so its recursion is bounded.
 */
function withRunnablePatternKeys(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  if (Array.isArray(schema)) {
    const items = schema.map(withRunnablePatternKeys);
    return items.some((item, i) => item !== schema[i]) ? items : schema;
  }
  let out: Record<string, unknown> | undefined;
  for (const [key, child] of Object.entries(schema)) {
    let next = withRunnablePatternKeys(child);
    if (key === 'patternProperties' && typeof next === 'object' && next !== null && !Array.isArray(next)) {
      const kept = Object.entries(next).filter(([pattern]) => {
        try {
          return !serverPattern(pattern, 'u').unchecked;
        } catch {
          return true;
        } // an invalid one fails the compile, as before
      });
      if (kept.length !== Object.keys(next).length) {
        next = Object.fromEntries(kept);
        out ??= { ...schema };
        delete out.additionalProperties;
        delete out.unevaluatedProperties;
      }
    }
    if (next !== child) {
      out ??= { ...schema };
      out[key] = next;
    }
  }
  return out ?? schema;
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
    case 'required':
      return 'Required.';
    case 'type':
      return `Must be ${/^[aeiou]/.test(String(p.type)) ? 'an' : 'a'} ${String(p.type)}.`;
    case 'minLength':
      return `Must be at least ${String(p.limit)} characters long.`;
    case 'maxLength':
      return `Must be at most ${String(p.limit)} characters long.`;
    case 'minimum':
      return `Must be at least ${String(p.limit)}.`;
    case 'maximum':
      return `Must be at most ${String(p.limit)}.`;
    case 'exclusiveMinimum':
      return `Must be greater than ${String(p.limit)}.`;
    case 'exclusiveMaximum':
      return `Must be less than ${String(p.limit)}.`;
    case 'multipleOf':
      return `Must be a multiple of ${String(p.multipleOf)}.`;
    case 'minItems':
      return `Choose at least ${String(p.limit)}.`;
    case 'maxItems':
      return `Choose at most ${String(p.limit)}.`;
    case 'uniqueItems':
      return 'Each entry must be different.';
    case 'format':
      return `Must be ${FORMAT_NAMES[String(p.format)] ?? `in the format ${String(p.format)}`}.`;
    case 'enum':
      return 'Must be one of the listed choices.';
    case 'const':
      return 'Must be the fixed value.';
    case 'pattern':
      return `Must match the pattern ${String(p.pattern)}.`;
    case 'additionalProperties':
      return `Unexpected property "${String(p.additionalProperty)}".`;
    default:
      return `${(err.message ?? 'is not valid').replace(/^must/, 'Must')}.`;
  }
}

/** Ajv errors as `path: sentence` lines (for results and logs). */
export function ajvMessages(errors: readonly ErrorObject[] | null | undefined, max = 20): string[] {
  return (errors ?? []).slice(0, max).map((e) => {
    const at = e.keyword === 'required' ? `${e.instancePath}/${String((e.params as { missingProperty?: unknown }).missingProperty)}` : e.instancePath;
    return `${at || '(root)'}: ${describeAjvError(e)}`;
  });
}
