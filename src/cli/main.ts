// `mcp-host`: the connection core, headless. The command line and the exit codes are a contract:
//   0 ok; 1 usage error or input refused locally; 4 server could not start / be reached / died;
//   5 the tool reported isError, its structured content broke its output schema, a URL it required was
//   not visited, or the server answered with a JSON-RPC error.
// In text mode everything a server supplies is printed terminal-safe (control characters shown, not obeyed).
// The commands live in commands/, one a file; the options in options.ts, one table.
import { bundleCommand } from './commands/bundle';
import { callCommand } from './commands/call';
import { completeCommand } from './commands/complete';
import { discoverCommand } from './commands/discover';
import { exportCommand } from './commands/export';
import { importCommand } from './commands/import';
import { loginCommand, logoutCommand } from './commands/login';
import { promptCommand } from './commands/prompt';
import { registryCommand } from './commands/registry';
import { resourceCommand } from './commands/resource';
import { runCommand } from './commands/run';
import { serversCommand } from './commands/servers';
import { taskCommandOf } from './commands/task';
import { toolsCommand } from './commands/tools';
import { EXIT, report } from './errors';
import { commandHelp, generalHelp, VERSION } from './help';
import { bindProcessLifetime } from './lifetime';
import { skillsCommand } from './skills';
import { checkOptionsOf, isCommand, parseArgs, usageError, type CommandName, type ParsedArgs } from './options';
import type { CliIo } from './target';

export { CliError, EXIT } from './errors';
export { parseArgs, USAGE, type ParsedArgs } from './options';
export { resolveTarget, type CliIo } from './target';
export { resultText } from './output';

const COMMAND_RUNS: Record<CommandName, (a: ParsedArgs, io: CliIo) => Promise<number>> = {
  servers: serversCommand,
  tools: toolsCommand,
  call: callCommand,
  prompt: promptCommand,
  resource: resourceCommand,
  complete: completeCommand,
  task: taskCommandOf,
  skills: skillsCommand,
  skill: skillsCommand,
  login: loginCommand,
  logout: logoutCommand,
  registry: registryCommand,
  bundle: bundleCommand,
  discover: discoverCommand,
  import: importCommand,
  export: exportCommand,
  run: runCommand,
};

/** Runs one command; returns the exit code. Errors are written to `io.stderr`. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  try {
    const a = parseArgs(argv);
    if (a.version) {
      io.stdout.write(`${VERSION}\n`);
      return EXIT.ok;
    }
    if (a.help || a.command === 'help') return showHelp(a.command === 'help' ? a.positional[0] : a.command, io);
    if (a.command === '') throw usageError('give a command');
    if (!isCommand(a.command)) throw usageError(`unknown command "${a.command}"`);
    checkOptionsOf(a.command, a);
    return await COMMAND_RUNS[a.command](a, io);
  } catch (e) {
    return report(e, io);
  }
}

/** `mcp-host --help`, `mcp-host COMMAND --help`, `mcp-host help [COMMAND]`. */
function showHelp(command: string | undefined, io: CliIo): number {
  if (!command) {
    io.stdout.write(`${generalHelp()}\n`);
    return EXIT.ok;
  }
  const help = commandHelp(command);
  if (!help) throw usageError(`unknown command "${command}"`);
  io.stdout.write(`${help}\n`);
  return EXIT.ok;
}

if (require.main === module) {
  // Output piped into `head` and the like: stop quietly once the reader has gone.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(EXIT.ok);
  });
  // Ctrl-C (or the parent's death) cancels the call in flight (the server is told), stops the servers, exits 130.
  const interrupt = new AbortController();
  bindProcessLifetime(interrupt);
  void run(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    interactive: !!(process.stdin.isTTY && process.stderr.isTTY),
    interrupt: interrupt.signal,
  }).then((code) => {
    process.exitCode = code;
    // Once what was written has reached stdout and stderr (a pipe takes large output in pieces), leave even
    // if a handle (a lingering socket) is still open.
    const flushed = (stream: NodeJS.WriteStream) =>
      new Promise<void>((resolve) => {
        stream.write('', () => resolve());
      });
    void Promise.all([flushed(process.stdout), flushed(process.stderr)]).then(() => {
      setTimeout(() => process.exit(code), 50).unref();
    });
  });
}
