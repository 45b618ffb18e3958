// Finding the places in a schema that want a file ("file slots"), for every shape servers use:
// - SEP-2356 `x-mcp-file` on a {type: string, format: uri} property, at any depth, or on array items;
// - older drafts: `mcpFile`, `x-mcp-file` on the array itself (with a warning), a `Tool.inputFiles`
//   sidecar map, `requestedFiles` for elicitation;
// - protobuf FileInput objects (`x-mcp-file-mode: "input"`, digest §7);
// - SEP-1306 `type: "file"` elicitation fields.
// A malformed or misplaced keyword is ignored with a warning naming the property.

import type { Logger } from '../log';
import { isObject } from '../../shared/json';
import { resolveRef } from '../schemaRefs';
import { readTransferModes, type TransferMode } from './transfer/protocol';

export type FileSlotOrigin = 'x-mcp-file' | 'x-mcp-file-on-array' | 'mcpFile' | 'inputFiles' | 'requestedFiles' | 'file-input-object' | 'binary-elicitation';

export type FileInputMode = 'content' | 'path' | 's3';

/** One argument (or elicitation field) that takes a file. Plain JSON. */
export interface FileSlot {
  /** Property names from the root of the schema to the slot. */
  path: string[];
  /** `path` joined with dots: `doc.attachment`. */
  label: string;
  /** An array of files (one per item). */
  multiple: boolean;
  minItems?: number;
  maxItems?: number;
  /** HTML accept grammar; absent means any file. */
  accept?: string[];
  /** Decoded bytes per file. */
  maxSize?: number;
  /** SEP-2631 (draft): how the file may travel; absent = the host chooses. */
  transferModes?: TransferMode[];
  origin: FileSlotOrigin;
  /** For FileInput objects: the sources the schema offers. */
  objectModes?: FileInputMode[];
  /** A sibling string property to fill with the file's name. */
  filenameCompanion?: string[];
  required: boolean;
  title?: string;
  description?: string;
}

export interface FileSlotScan {
  slots: FileSlot[];
  warnings: string[];
}

export interface ToolLike {
  name?: string;
  inputSchema?: unknown;
  /** An older draft's sidecar map; ServerConnection keeps it on the tools it lists. */
  inputFiles?: unknown;
}

type Schema = Record<string, unknown>;

const FILE_KEYWORDS = ['x-mcp-file', 'mcpFile'] as const;

function hasType(schema: Schema, type: string): boolean {
  const t = schema.type;
  return t === type || (Array.isArray(t) && t.includes(type) && t.every((x) => x === type || x === 'null'));
}

function isUriString(schema: unknown): boolean {
  return isObject(schema) && hasType(schema, 'string') && schema.format === 'uri';
}

function quote(path: string[]): string {
  return `'${path.join('.')}'`;
}

interface Descriptor {
  accept?: string[];
  maxSize?: number;
  transferModes?: TransferMode[];
}

/** Validates a `{accept?, maxSize?}` descriptor; returns the problem as text when it is malformed. */
function readDescriptor(value: unknown): Descriptor | string {
  if (!isObject(value)) return `is ${Array.isArray(value) ? 'an array' : (JSON.stringify(value)?.slice(0, 40) ?? typeof value)}, not an object`;
  const out: Descriptor = {};
  if (value.accept !== undefined) {
    if (!Array.isArray(value.accept) || !value.accept.every((a) => typeof a === 'string')) {
      return 'has an accept that is not a list of strings';
    }
    out.accept = value.accept.map((a: string) => a.trim()).filter((a: string) => a !== '');
  }
  if (value.maxSize !== undefined) {
    if (typeof value.maxSize !== 'number' || !Number.isInteger(value.maxSize) || value.maxSize < 0) {
      return 'has a maxSize that is not a whole number of bytes';
    }
    out.maxSize = value.maxSize;
  }
  const modes = readTransferModes(value.transferModes);
  if (typeof modes === 'string') return modes;
  if (modes) out.transferModes = modes;
  return out;
}

function followRefs(root: unknown, schema: unknown): unknown {
  return isObject(schema) ? (resolveRef(root, schema) ?? schema) : schema;
}

/**
 * Follows a local `$ref` (`#/$defs/x`, `#/definitions/x`) from `root` and unwraps an optional value written as
 * `anyOf`/`oneOf` of one schema and `{type: "null"}` (what Pydantic emits for `Optional[...]`).
 */
export function resolveSchema(root: unknown, schema: unknown): unknown {
  const target = followRefs(root, schema);
  if (!isObject(target)) return target;
  const union = Array.isArray(target.anyOf) ? 'anyOf' : Array.isArray(target.oneOf) ? 'oneOf' : undefined;
  if (!union) return target;
  const branches = (target[union] as unknown[]).map((b) => followRefs(root, b));
  const real = branches.filter((b) => !(isObject(b) && b.type === 'null'));
  if (real.length !== 1 || !isObject(real[0])) return target;
  const { [union]: _dropped, ...outer } = target;
  return { ...real[0], ...outer };
}

class Scanner {
  readonly slots: FileSlot[] = [];
  readonly warnings: string[] = [];
  private readonly seenRefs = new Set<string>();

  constructor(
    private readonly root: unknown,
    private readonly subject: string,
  ) {}

  warn(message: string): void {
    this.warnings.push(`${this.subject}: ${message}`);
  }

  resolve(schema: unknown): unknown {
    return resolveSchema(this.root, schema);
  }

  scanObject(schema: Schema, path: string[], required: boolean, depth: number): void {
    if (depth > 12) return;
    const properties = isObject(schema.properties) ? schema.properties : {};
    const requiredNames = Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [];
    const before = this.slots.length;
    for (const [name, raw] of Object.entries(properties)) {
      const ref = isObject(raw) && typeof raw.$ref === 'string' ? raw.$ref : undefined;
      if (ref && this.seenRefs.has(ref)) continue;
      if (ref) this.seenRefs.add(ref);
      const prop = this.resolve(raw);
      if (isObject(prop)) this.scanProperty(name, prop, [...path, name], required && requiredNames.includes(name), depth);
      if (ref) this.seenRefs.delete(ref);
    }
    this.pairFilenameCompanion(properties, path, this.slots.slice(before));
  }

  private scanProperty(name: string, prop: Schema, path: string[], required: boolean, depth: number): void {
    const common = { path, label: path.join('.'), required, ...text(prop) };
    for (const keyword of FILE_KEYWORDS) {
      if (!(keyword in prop)) continue;
      const descriptor = readDescriptor(prop[keyword]);
      const items = isObject(prop.items) ? this.resolve(prop.items) : undefined;
      if (typeof descriptor === 'string') {
        this.ignored(path, required, `its ${keyword} keyword ${descriptor}`);
      } else if (isUriString(prop)) {
        this.slots.push({ ...common, multiple: false, ...descriptor, origin: keyword });
      } else if (hasType(prop, 'array') && isUriString(items)) {
        this.slots.push({
          ...common,
          multiple: true,
          ...arrayBounds(prop),
          ...descriptor,
          origin: keyword === 'mcpFile' ? 'mcpFile' : 'x-mcp-file-on-array',
        });
        if (keyword === 'x-mcp-file') {
          this.warn(
            `property ${quote(path)}: x-mcp-file on the array itself is deprecated (an older draft's placement; the current draft puts it on "items"); still filled as a list of files.`,
          );
        }
      } else {
        this.ignored(path, required, `${keyword} is only valid on {"type": "string", "format": "uri"}`);
      }
      return;
    }
    if (hasType(prop, 'array') && isObject(prop.items)) {
      const items = this.resolve(prop.items);
      if (!isObject(items)) return;
      for (const keyword of FILE_KEYWORDS) {
        if (!(keyword in items)) continue;
        const descriptor = readDescriptor(items[keyword]);
        if (typeof descriptor === 'string') {
          this.ignored(path, required, `its items' ${keyword} keyword ${descriptor}`);
        } else if (isUriString(items)) {
          this.slots.push({ ...common, multiple: true, ...arrayBounds(prop), ...descriptor, origin: keyword });
        } else {
          this.ignored(path, required, `${keyword} on its items is only valid on {"type": "string", "format": "uri"}`);
        }
        return;
      }
      const modes = fileInputModes(items);
      if (modes) this.slots.push({ ...common, multiple: true, ...arrayBounds(prop), origin: 'file-input-object', objectModes: modes });
      return;
    }
    if (hasType(prop, 'object')) {
      if (prop['x-mcp-file-mode'] === 'output') return;
      const modes = fileInputModes(prop);
      if (modes) {
        this.slots.push({ ...common, multiple: false, origin: 'file-input-object', objectModes: modes });
        return;
      }
      this.scanObject(prop, path, required, depth + 1);
    }
  }

  ignored(path: string[], required: boolean, why: string): void {
    const tail = required ? ' It is required, so the tool may not be usable without typing a value by hand.' : '';
    this.warn(`property ${quote(path)}: ${why}; shown as an ordinary field.${tail}`);
  }

  /** A sibling string whose name or description asks for the file's name, beside exactly one single-file slot. */
  pairFilenameCompanion(properties: Schema, parent: string[], slotsHere: FileSlot[]): void {
    const direct = slotsHere.filter((s) => s.path.length === parent.length + 1);
    if (direct.length !== 1) return;
    const slot = direct[0]!;
    if (slot.multiple || slot.origin === 'file-input-object') return;
    const slotName = slot.path[slot.path.length - 1];
    const candidates = Object.entries(properties).filter(([name, raw]) => {
      const prop = this.resolve(raw);
      if (name === slotName || !isObject(prop) || !hasType(prop, 'string') || prop.format !== undefined) return false;
      if (prop.enum !== undefined || prop.const !== undefined) return false;
      return asksForFileName(name, typeof prop.description === 'string' ? prop.description : '');
    });
    if (candidates.length === 1) slot.filenameCompanion = [...parent, candidates[0]![0]];
  }
}

function text(schema: Schema): { title?: string; description?: string } {
  const out: { title?: string; description?: string } = {};
  if (typeof schema.title === 'string') out.title = schema.title;
  if (typeof schema.description === 'string') out.description = schema.description;
  return out;
}

function arrayBounds(schema: Schema): { minItems?: number; maxItems?: number } {
  const out: { minItems?: number; maxItems?: number } = {};
  if (Number.isInteger(schema.minItems) && (schema.minItems as number) >= 0) out.minItems = schema.minItems as number;
  if (Number.isInteger(schema.maxItems) && (schema.maxItems as number) >= 0) out.maxItems = schema.maxItems as number;
  return out;
}

/**
 * The sources a FileInput object offers, or undefined when the schema is not one. Recognised by the
 * `x-mcp-file-mode: "input"` marker, or (the marker is stripped by `WithFileMode`) by the exact shape:
 * a base64 `content` with `filename` and `mime_type` beside it.
 */
function fileInputModes(schema: Schema): FileInputMode[] | undefined {
  const props = isObject(schema.properties) ? schema.properties : undefined;
  if (!props) return undefined;
  const marked = schema['x-mcp-file-mode'] === 'input';
  const content = props.content;
  const shaped = isObject(content) && content.contentEncoding === 'base64' && 'filename' in props && 'mime_type' in props;
  if (!marked && !shaped) return undefined;
  const modes = (['content', 'path', 's3'] as const).filter((m) => isObject(props[m]));
  return modes.length > 0 ? modes : undefined;
}

const FILENAME_NAME = /^(file_?name|original_?(file_?)?name|name_of_(the_)?file|[a-z0-9]+_file_?name)$/i;
const FILENAME_CAMEL = /^[a-z][a-zA-Z0-9]*File[Nn]ame$/;
const FILENAME_DESCRIPTION = /\b(file ?name|name of the (file|attachment|document|image|upload|photo|picture))\b/i;
// A name for something the tool will write is not the chosen file's name.
const OUTPUT_WORDS = /\b(output|save|saved|create|new|destination|export|target)\b/i;

function asksForFileName(name: string, description: string): boolean {
  if (OUTPUT_WORDS.test(name.replace(/_/g, ' ')) || OUTPUT_WORDS.test(description)) return false;
  return FILENAME_NAME.test(name) || FILENAME_CAMEL.test(name) || FILENAME_DESCRIPTION.test(description);
}

/**
 * Adds slots from an older draft's sidecar map (`inputFiles` / `requestedFiles`): keys are top-level
 * property names, values `{accept?, maxSize?}`. The property must be a string or an array of strings.
 */
function scanSidecar(scanner: Scanner, map: unknown, schema: Schema, origin: 'inputFiles' | 'requestedFiles'): void {
  if (map === undefined) return;
  if (!isObject(map)) {
    scanner.warn(`${origin} is not an object; ignored.`);
    return;
  }
  const properties = isObject(schema.properties) ? schema.properties : {};
  const requiredNames = Array.isArray(schema.required) ? schema.required : [];
  for (const [name, value] of Object.entries(map)) {
    const prop = scanner.resolve(properties[name]);
    const path = [name];
    const required = requiredNames.includes(name);
    if (scanner.slots.some((s) => s.label === name)) continue;
    if (!isObject(prop)) {
      scanner.warn(`${origin} names property '${name}', which the schema does not define; ignored.`);
      continue;
    }
    const descriptor = readDescriptor(value);
    if (typeof descriptor === 'string') {
      scanner.ignored(path, required, `its ${origin} entry ${descriptor}`);
      continue;
    }
    const common = { path, label: name, required, ...descriptor, origin, ...text(prop) };
    const items = scanner.resolve(prop.items);
    if (hasType(prop, 'string')) scanner.slots.push({ ...common, multiple: false });
    else if (hasType(prop, 'array') && isObject(items) && hasType(items, 'string')) {
      scanner.slots.push({ ...common, multiple: true, ...arrayBounds(prop) });
    } else scanner.ignored(path, required, `its ${origin} entry needs a string or an array of strings`);
  }
}

function finish(scanner: Scanner, log: Logger | undefined): FileSlotScan {
  for (const w of scanner.warnings) log?.warn(w);
  return { slots: scanner.slots, warnings: scanner.warnings };
}

/** Every file slot of a tool, with a warning for each file keyword that had to be ignored. */
export function findFileSlots(tool: ToolLike, log?: Logger): FileSlotScan {
  const subject = `tool '${tool.name ?? '?'}'`;
  const schema = tool.inputSchema;
  const scanner = new Scanner(schema, subject);
  if (!isObject(schema)) {
    if (tool.inputFiles !== undefined) scanner.warn('has inputFiles but no inputSchema; ignored.');
    return finish(scanner, log);
  }
  scanner.scanObject(schema, [], true, 0);
  scanSidecar(scanner, tool.inputFiles, schema, 'inputFiles');
  return finish(scanner, log);
}

/**
 * File fields of an elicitation request: `x-mcp-file` (or `mcpFile`) on a string/uri field, an older
 * draft's `requestedFiles` map, and SEP-1306 `type: "file"` fields (binary mode). Elicitation schemas
 * are flat; an array file field is not allowed there and is reported as malformed.
 */
export function findElicitationFileFields(requestedSchema: unknown, requestedFiles?: unknown, log?: Logger): FileSlotScan {
  const scanner = new Scanner(requestedSchema, 'elicitation');
  if (!isObject(requestedSchema)) return finish(scanner, log);
  const properties = isObject(requestedSchema.properties) ? requestedSchema.properties : {};
  const requiredNames = Array.isArray(requestedSchema.required) ? requestedSchema.required : [];
  for (const [name, prop] of Object.entries(properties)) {
    if (!isObject(prop)) continue;
    const path = [name];
    const required = requiredNames.includes(name);
    const common = { path, label: name, required, ...text(prop) };
    if (prop.type === 'file') {
      const descriptor = readDescriptor({ accept: prop.accept, maxSize: prop.maxSize });
      if (typeof descriptor === 'string') {
        scanner.ignored(path, required, `its file field ${descriptor}`);
        continue;
      }
      scanner.slots.push({ ...common, multiple: prop.multiple === true, ...descriptor, origin: 'binary-elicitation' });
      continue;
    }
    const keyword = FILE_KEYWORDS.find((k) => k in prop);
    if (!keyword) continue;
    const descriptor = readDescriptor(prop[keyword]);
    if (typeof descriptor === 'string') scanner.ignored(path, required, `its ${keyword} keyword ${descriptor}`);
    else if (isUriString(prop)) scanner.slots.push({ ...common, multiple: false, ...descriptor, origin: keyword });
    else if (hasType(prop, 'array')) scanner.ignored(path, required, 'a file array is not allowed in an elicitation form');
    else scanner.ignored(path, required, `${keyword} is only valid on {"type": "string", "format": "uri"}`);
  }
  scanSidecar(scanner, requestedFiles, requestedSchema, 'requestedFiles');
  scanner.pairFilenameCompanion(properties, [], scanner.slots);
  return finish(scanner, log);
}
