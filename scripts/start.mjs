// `npm start`: installs what is missing, builds, and serves a real VS Code (code-server) on
// 127.0.0.1 with this extension loaded on the demo workspace. Prints the URL; Ctrl-C stops it all.
//   npm start [-- --port 8080] [--no-build]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const workspace = join(root, 'examples/workspace');

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`${cmd} ${args.join(' ')} failed (exit ${r.status})`);
    process.exit(1);
  }
}

const { ensurePrerequisites } = await import('./prerequisites.mjs');
await ensurePrerequisites({ workbench: true });
// Imported only now: it needs the dependencies installed above.
const { startCodeServer } = await import('./code-server.mjs');

if (!process.argv.includes('--no-build')) run(process.execPath, ['scripts/build.mjs']);

// A fresh extensions dir holding only this folder, under the name VS Code gives installed extensions.
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const extensionsDir = mkdtempSync(join(tmpdir(), 'mcp-host-start-ext-'));
process.on('exit', () => rmSync(extensionsDir, { recursive: true, force: true }));
symlinkSync(root, join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`), 'dir');

const portAt = process.argv.indexOf('--port');
const port = portAt >= 0 ? Number(process.argv[portAt + 1]) : undefined;
const server = await startCodeServer({ workspace, extensionsDir, port });
console.log(`\nMCP Host is running in VS Code at:\n\n  ${server.workbenchUrl(workspace)}\n`);
console.log(`code-server log: ${server.logFile}`);
console.log('Press Ctrl-C to stop.');
