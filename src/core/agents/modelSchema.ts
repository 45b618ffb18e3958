// What a language model sees of an MCP tool: the same input schema with every file slot rewritten to a
// workspace path (a string the model can write), its accepted types and size limit in the description.
// The host fills the slot itself from that path (SEP-2356: hosts fill file slots). Nothing in the rewritten
// schema asks the model for a URI or base64 bytes: file keywords the scan could not use become arguments that
// accept no value at all, so a model cannot smuggle a data: URI through them.

import { isObject } from '../../shared/json';
import { describeAccept } from '../../shared/format';
import { effectiveLimit, findFileSlots, formatBytes, type FileSlot, type InlineLimits, type ToolLike } from '../files';
import { resolveSchema } from '../files/slots';

type Schema = Record<string, unknown>;

export interface ModelFacingSchema {
  /** The input schema the model is given. */
  inputSchema: Schema;
  /** The slots the host fills, each from the path the model gives in its place. */
  slots: FileSlot[];
  /** Problems with the tool's file arguments, in words a model can act on. */
  warnings: string[];
}

const FILE_KEYWORDS = ['x-mcp-file', 'mcpFile'];
const MAX_DEPTH = 64;

/** How a slot's path is described to the model: what it takes and how large it may be. */
export function describePathSlot(slot: FileSlot, limits: InlineLimits): string {
  const limit = effectiveLimit(slot, limits);
  const size = Number.isFinite(limit.bytes) ? `; at most ${formatBytes(limit.bytes)} per file` : '';
  const what = slot.multiple ? 'Paths of files in the workspace' : 'Path of a file in the workspace';
  const own = [slot.title, slot.description]
    .filter((t): t is string => !!t && t.trim() !== '')
    .join(': ')
    .replace(/[.\s]+$/, '');
  return (
    `${own ? `${own}. ` : ''}${what}, relative to a workspace folder (e.g. "images/photo.png"); the host reads the file and sends it. ` +
    `Accepts ${describeAccept(slot.accept)}${size}.`
  );
}

function pathSchema(slot: FileSlot, limits: InlineLimits): Schema {
  const description = describePathSlot(slot, limits);
  const one = { type: 'string', minLength: 1 };
  if (!slot.multiple) return { ...one, description };
  return {
    type: 'array',
    description,
    items: one,
    ...(slot.minItems !== undefined ? { minItems: slot.minItems } : {}),
    ...(slot.maxItems !== undefined ? { maxItems: slot.maxItems } : {}),
  };
}

/** An argument the host cannot fill and the model must not: no value validates against it. */
function unfillable(why: string): Schema {
  return { description: `A file the host cannot fill (${why}); leave this argument out.`, not: {} };
}

/**
 * Replaces the schema at `path` (property names from the root). Each object on the way is copied with its
 * `$ref` or optional wrapper resolved, so the replacement never changes a shared definition.
 */
function replaceAt(root: Schema, path: readonly string[], replacement: Schema): void {
  let node = root;
  for (const [i, name] of path.entries()) {
    const properties = isObject(node.properties) ? node.properties : undefined;
    if (!properties || !(name in properties)) return;
    if (i === path.length - 1) {
      properties[name] = replacement;
      return;
    }
    const resolved = resolveSchema(root, properties[name]);
    if (!isObject(resolved)) return;
    const copy = structuredClone(resolved);
    properties[name] = copy;
    node = copy;
  }
}

/** A FileInput object (content/path/s3 with filename and mime_type), marked or recognised by its shape. */
function isFileInputObject(schema: Schema): boolean {
  if (schema['x-mcp-file-mode'] === 'input') return true;
  const props = isObject(schema.properties) ? schema.properties : undefined;
  return !!props && isObject(props.content) && props.content.contentEncoding === 'base64' && 'filename' in props && 'mime_type' in props;
}

/** Every file keyword left in the schema (ones the scan ignored, definitions no slot used) made unfillable. */
function neutralise(schema: unknown, at: string, warnings: string[], depth = 0): unknown {
  if (depth > MAX_DEPTH) return unfillable('nested too deeply');
  if (Array.isArray(schema)) return schema.map((s, i) => neutralise(s, `${at}/${i}`, warnings, depth + 1));
  if (!isObject(schema)) return schema;
  if (FILE_KEYWORDS.some((k) => k in schema) || isFileInputObject(schema)) {
    warnings.push(`${at || '/'}: a file argument whose schema the host cannot use; the model cannot fill it.`);
    return unfillable('its file schema is not one the host can use');
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) out[key] = neutralise(value, `${at}/${key}`, warnings, depth + 1);
  return out;
}

/**
 * The model-facing input schema of a tool: each file slot (single, array items, FileInput object, and the older
 * drafts' shapes) replaced by a workspace path, everything else unchanged. `limits` are the transport's, so the
 * size a description states is the one the host enforces.
 */
export function modelFacingSchema(tool: ToolLike, limits: InlineLimits): ModelFacingSchema {
  const { slots, warnings } = findFileSlots(tool);
  const schema: Schema = isObject(tool.inputSchema) ? structuredClone(tool.inputSchema) : { type: 'object', properties: {} };
  for (const slot of slots) replaceAt(schema, slot.path, pathSchema(slot, limits));
  // An older draft's sidecar map names top-level properties; those it could not use must not stay plain strings.
  if (isObject(tool.inputFiles) && isObject(schema.properties)) {
    const properties = schema.properties;
    for (const name of Object.keys(tool.inputFiles)) {
      if (name in properties && !slots.some((s) => s.label === name)) {
        properties[name] = unfillable('its inputFiles entry is not one the host can use');
        warnings.push(`/properties/${name}: a file argument whose schema the host cannot use; the model cannot fill it.`);
      }
    }
  }
  const inputSchema = neutralise(schema, '', warnings) as Schema;
  return { inputSchema, slots, warnings };
}
