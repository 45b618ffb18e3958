// Local `$ref` resolution for the JSON Schemas servers send, used by the form builder and the file-slot scan.

import { isObject } from '../shared/json';

/** How many `$ref` hops one schema may take before it is treated as unresolvable (a cycle, say). */
export const MAX_REF_HOPS = 16;

/**
 * Follows local `$ref`s (`#/$defs/x`, `#/definitions/x`, percent-encoded and `~0`/`~1`-escaped segments) from
 * `root`, by own keys only (a server's names never reach inherited members). Keywords beside a `$ref` are kept over the target's (2020-12 semantics). Returns the schema itself when
 * it has no `$ref`, and undefined when a reference is remote (never fetched), missing, or too deep.
 */
export function resolveRef(root: unknown, schema: Record<string, unknown>, maxHops = MAX_REF_HOPS): Record<string, unknown> | undefined {
  let current = schema;
  for (let hop = 0; typeof current.$ref === 'string'; hop++) {
    if (hop >= maxHops) return undefined;
    const ref = current.$ref;
    if (!ref.startsWith('#')) return undefined;
    let target: unknown = root;
    for (const raw of ref.slice(1).split('/').filter(Boolean)) {
      let key: string;
      try {
        key = decodeURIComponent(raw);
      } catch {
        return undefined;
      }
      key = key.replace(/~1/g, '/').replace(/~0/g, '~');
      target = isObject(target) && Object.hasOwn(target, key) ? target[key] : undefined;
    }
    if (!isObject(target)) return undefined;
    const { $ref: _ref, ...siblings } = current;
    current = { ...target, ...siblings };
  }
  return current;
}
