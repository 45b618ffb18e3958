// The nesting bound on what a server sends, applied to each message as it arrives, before the SDK parses it:
// its result schemas recurse once per level of a JSON value, so a tool list 10,000 levels deep would overflow
// the stack and take the whole server down. A too-deep tool is refused on its own; anything else too deep is
// cut at the limit (`CUT_MARKER` in its place), which the result view then names.
import { isObject } from '../../shared/json';
import { cutDeep, jsonShape } from '../io/json';
import { MAX_SERVER_JSON_DEPTH } from '../io/limits';

export interface RefusedTool {
  name: string;
  reason: string;
}

/** The JSON-RPC envelope around a tool or a result's structured content (result, tools, the list…), allowed on top. */
const ENVELOPE_DEPTH = 8;

/** Bounds the nesting of one incoming message, in place; returns the tools of a tools/list answer it refused. */
export function boundNesting(message: unknown): RefusedTool[] {
  if (!isObject(message)) return [];
  const refused: RefusedTool[] = [];
  const result = message.result;
  if (isObject(result)) {
    if (Array.isArray(result.tools)) {
      result.tools = result.tools.filter((tool) => {
        if (!jsonShape(tool, MAX_SERVER_JSON_DEPTH).tooDeep) return true;
        const name = isObject(tool) && typeof tool.name === 'string' ? tool.name.slice(0, 200) : '(unnamed)';
        refused.push({ name, reason: `its definition nests more than ${MAX_SERVER_JSON_DEPTH} levels deep, the host's limit` });
        return false;
      });
    }
    if (result.structuredContent !== undefined) result.structuredContent = cutDeep(result.structuredContent).value;
  }
  for (const key of ['result', 'params', 'error']) {
    if (message[key] !== undefined) message[key] = cutDeep(message[key], MAX_SERVER_JSON_DEPTH + ENVELOPE_DEPTH).value;
  }
  return refused;
}
