// A test-only extension loaded beside MCP Host in every end-to-end workbench (test/e2e/workbench.mts: as a
// development extension, or installed beside the .vsix): from the host's start, each unhandled rejection and uncaught exception
// of the extension host is appended as a JSON line to the file named by MCP_HOST_HOST_PROBLEMS, which the harness
// reads when the scenario ends. It runs in Restricted Mode too.
import { appendFileSync } from 'node:fs';
import { watchHostProcess } from './watch';

let stop: (() => void) | undefined;

export function activate(): void {
  const file = process.env.MCP_HOST_HOST_PROBLEMS;
  if (!file) return;
  // the file exists from now on: the harness tells a quiet host from one nobody watched
  appendFileSync(file, '');
  stop = watchHostProcess(
    () => 'the scenario',
    (problem) => appendFileSync(file, `${JSON.stringify(problem)}\n`),
  );
}

export function deactivate(): void {
  stop?.();
}
