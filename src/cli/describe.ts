// A server definition in one line: the command line, or the URL (as `mcp-host servers` prints it).
import type { ServerDefinition } from '../core/config';

export function describeDefinitionLine(s: ServerDefinition): string {
  return s.type === 'stdio' ? [s.command, ...s.args].join(' ') : s.url;
}
