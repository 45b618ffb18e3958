// A sandboxed server's refusals, on stderr, each with the mcp.json entry that would allow it.
import type { ServerConnection } from '../core/connection';
import { describeAllowEntry, describeRefusal } from '../core/sandbox';
import { terminalText } from './terminal';

export function printSandboxRefusals(connection: ServerConnection, stderr: NodeJS.WritableStream): void {
  connection.onSandboxRefusal((r) => {
    const allow = r.allow ? `; to allow it, add to the server's entry in mcp.json: ${describeAllowEntry(r.allow)}` : ' (a denyWrite entry covers it)';
    stderr.write(`${terminalText(`sandbox refused: ${describeRefusal(r)}${allow}`)}\n`);
  });
}
