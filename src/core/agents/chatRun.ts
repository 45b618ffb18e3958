// `@mcp /run <tool> [on <server>] #file:…`: which tool the user named, and which file argument each referenced
// file fills (in order; an argument that takes several files takes the rest).

import type { FileSlot } from '../files';

/** `tool`, `server/tool` or `tool on server`. */
export function parseRunTarget(text: string): { tool?: string; server?: string } {
  const words = text.split(/\s+/).filter(Boolean);
  const [first, second, third] = words;
  if (!first) return {};
  if (second === 'on' && third) return { tool: first, server: third };
  const slash = first.indexOf('/');
  return slash > 0 ? { server: first.slice(0, slash), tool: first.slice(slash + 1) } : { tool: first };
}

/** The referenced files slot by slot, and how many found no slot. */
export function assignReferencedFiles<T>(slots: readonly FileSlot[], files: readonly T[]): { filled: { slot: FileSlot; files: T[] }[]; unused: number } {
  const filled: { slot: FileSlot; files: T[] }[] = [];
  let next = 0;
  for (const slot of slots) {
    if (next >= files.length) break;
    const take = slot.multiple ? files.slice(next) : files.slice(next, next + 1);
    next += take.length;
    filled.push({ slot, files: take });
  }
  return { filled, unused: files.length - next };
}
