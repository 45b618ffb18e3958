// The way back from what a model wrote against the model-facing schema: the workspace paths it gave in each
// file slot, taken out of the arguments (the host puts the encoded files there), and the rest as given.

import { isObject } from '../../shared/json';
import { getAtPath, type FileSlot } from '../files';

export interface SlotPaths {
  slot: FileSlot;
  paths: string[];
}

export type SplitArguments = { ok: true; args: Record<string, unknown>; files: SlotPaths[] } | { ok: false; reason: string };

/** A scheme such as `data:`, `file:` or `https:` (a Windows drive letter is a path, not a scheme). */
const URI_SCHEME = /^[a-z][a-z0-9+.-]+:/i;

function deleteAtPath(args: Record<string, unknown>, path: readonly string[]): void {
  let node: unknown = args;
  for (const name of path.slice(0, -1)) {
    node = isObject(node) && Object.hasOwn(node, name) ? node[name] : undefined;
  }
  if (isObject(node)) delete node[path[path.length - 1]!];
}

/** The first string in a value that is a data: URI, with where it is, for a refusal naming the argument. */
function findDataUri(value: unknown, at: string, depth = 0): string | undefined {
  if (typeof value === 'string') return /^\s*data:/i.test(value) ? at : undefined;
  if (depth > 32 || (!Array.isArray(value) && !isObject(value))) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const found = findDataUri(inner, at ? `${at}.${key}` : key, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Splits the model's arguments: each slot's paths (strings, one or a list as the slot takes) out, the rest kept.
 * Refused, naming the argument: a slot given something other than paths, a URI instead of a path, a missing
 * required file, and file bytes (a data: URI) anywhere else in the arguments.
 */
export function splitModelArguments(input: unknown, slots: readonly FileSlot[]): SplitArguments {
  if (input !== undefined && !isObject(input)) return { ok: false, reason: 'The arguments must be a JSON object.' };
  const args = structuredClone<Record<string, unknown>>(input ?? {});
  const files: SlotPaths[] = [];
  for (const slot of slots) {
    const value = getAtPath(args, slot.path);
    deleteAtPath(args, slot.path);
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) {
      if (slot.required) return { ok: false, reason: `Argument '${slot.label}' is required: give the path of a file in the workspace.` };
      continue;
    }
    const list = slot.multiple ? value : [value];
    if (!Array.isArray(list) || !list.every((p) => typeof p === 'string')) {
      return {
        ok: false,
        reason: `Argument '${slot.label}' takes ${slot.multiple ? 'a list of paths' : 'a path'} of ${slot.multiple ? 'files' : 'a file'} in the workspace (${slot.multiple ? 'strings' : 'a string'}).`,
      };
    }
    const paths = list;
    const uri = paths.find((p) => URI_SCHEME.test(p) && !/^[a-z]:[\\/]/i.test(p));
    if (uri !== undefined) {
      return {
        ok: false,
        reason: `Argument '${slot.label}' takes the path of a file in the workspace, not a URI (${uri.slice(0, 12)}…); the host reads the file itself.`,
      };
    }
    files.push({ slot, paths });
  }
  const smuggled = findDataUri(args, '');
  if (smuggled !== undefined) {
    return {
      ok: false,
      reason: `Argument '${smuggled}' holds a data: URI; file contents are not taken from the model. Give a workspace path in a file argument instead.`,
    };
  }
  return { ok: true, args, files };
}
