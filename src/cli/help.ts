// `mcp-host --help`, `mcp-host <command> --help` (or `mcp-host help <command>`) and `mcp-host --version`.
// A command's help is its synopsis, what it does, then its options: all from the option table (options.ts),
// so a command or an option added there has help at once.
import { HOST_VERSION } from '../shared/version';
import { CARRYING, CONNECTING, COMMANDS, OPTIONS, optionLines, optionsOf, synopsis, USAGE, wrap, type CommandName } from './options';

/** The version of the package this CLI was built from. */
export const VERSION = HOST_VERSION;

export const EXIT_CODES_HELP = `exit codes:
  0    ok
  1    usage error, or an input refused locally (a file, value or answers-file key; nothing of it is sent)
  4    the server could not start, be reached, or died; or the call timed out
  5    the tool reported an error, its structured content broke (or lacked) its output schema, a URL it
       required was declined, the server answered with an error, or a file upload or download failed (or did
       not match its size or sha-256; nothing is left behind)
  130  interrupted (Ctrl-C)`;

const TARGET_HELP = `TARGET, the server to talk to (one of):
  --server NAME [--config FILE]   a server of an mcp.json (default: .vscode/mcp.json here); \${input:ID}
                                  values come from MCP_INPUT_<ID>, or a prompt on a terminal
  --url URL                       a Streamable HTTP server (a URL ending in /sse: legacy HTTP+SSE)
  -- COMMAND [ARGS...]            a stdio server started with this command (always last)`;

/** What a command does, beyond its one-line summary. */
const DETAILS: Partial<Record<CommandName, string>> = {
  servers: 'Lists the servers of an mcp.json: name, transport, and the command or URL.',
  tools: `Lists the tools of a server, one short line each. The tools a server lists can depend on the capabilities
the host declares: with the same options, tools lists what call can reach.`,
  call: 'Calls a tool and prints the text of its result.',
  task: `Asks a server about one of its tasks (the ids that call --no-wait prints).
  get ID          the task's status and message
  result ID       its result (waits until the task ends)
  cancel ID       cancel it`,
  login: `Signs in to an HTTP server now: its stored tokens are forgotten (its client registration is kept), the
sign-in page opens in the browser ($BROWSER, or its URL is printed) and the redirect comes back to 127.0.0.1.
Tokens are kept in $XDG_CONFIG_HOME/mcp-host/tokens.json (mode 0600) unless --no-token-store.`,
  logout: 'Forgets what is stored for an HTTP server: its tokens, refresh tokens and client registrations.',
  prompt:
    "Gets a prompt and prints its messages, each under its role. A file argument (x-mcp-file) takes\n--file ARG=PATH: checked like a tool's, sent inline as a data: URI.",
  resource: `Reads a resource of a server. A file it names (SEP-2631 FileResourceContents) is listed as a line
(name, size, type, file URI) and downloaded only when asked, its size and sha-256 checked before it is kept.`,
  skills: `Lists the skills a server serves (skills/list, every page): the name (its path when two skills share
a name), the description, and how many files it has. No file of a skill is read.`,
  skill: `Reads a skill of a server, only what is asked for. SKILL is its name, its path (acme/billing/refunds) or the URI
of its SKILL.md (one the listing leaves out is asked of the server with skills/get).
  get SKILL          load the skill: print its SKILL.md, once its size, sha-256 and frontmatter match the listing
  read SKILL FILE    print one file the skill lists (references/GUIDE.md, or its URI), verified the same way
  ls SKILL [DIR]     the skill's directory (or DIR in it): resources/directory/read when the server offers it,
                     else the files the listing names`,
  run: `Runs the saved calls of FILE (the MCP view's Save Call…, or call --record), each against the server it names
in the mcp.json beside FILE (or --config), and checks what each call expects: its outcome (a tool error fails a
call that expects nothing else), its structured content (equal, containing, or matching a JSON Schema), its text
(containing a string, matching an RE2 pattern), its duration. A file argument is sent only when it is the file
saved (same size and sha-256); secrets come from the env: or file: source saved, secure values from the server's
entry in the mcp.json. A tool that runs as a task is followed to its end (--timeout: the whole wait). Prints a
line per call and what differed; exits 5 when an expectation failed, 4 when a call could not be made (and none
failed).`,
  complete: "Prints the server's suggestions for one argument of a prompt or a resource template, one per line.",
  registry: `Finds servers in an MCP Registry and writes one into an mcp.json.
  search [TEXT]   servers whose name has TEXT (--pages for more)
  show NAME       a server's details, and the values each of its packages and remotes takes
  install NAME    the server's entry, its version pinned (an MCP Bundle is downloaded, its sha-256
                  checked, and installed as by bundle install)`,
  bundle: `Installs an MCP Bundle (.mcpb). Before anything is written: its sha-256 (with --sha256), its size, its
count of files, and every path (inside the bundle's folder, no links) are checked, and its manifest.json is read
with the bundle format's own schema. Then it is unpacked into a temporary folder, moved into the data folder
($XDG_DATA_HOME/mcp-host/bundles, ~/Library/Application Support/mcp-host/bundles on macOS, %LOCALAPPDATA%
\\mcp-host\\bundles on Windows; MCP_HOST_BUNDLES overrides), and an entry that runs it is written. Its user_config
values are given with --arg K=V; sensitive ones are never written: they are asked at the first start.`,
  discover: `Lists the servers configured for other apps, read only: SOURCE is claudeDesktop, claudeCode (.mcp.json
here, ~/.claude.json with its entry for this folder), cursor (~/.cursor/mcp.json, .cursor/mcp.json here),
windsurf, copilotCli or codex (~/.codex/config.toml). Without SOURCE, every one. A file that cannot be read is
reported for its source alone.`,
  import: `Copies servers into an mcp.json: those of another app (SOURCE, as discover names them) or of a standard
mcp.json FILE (as export writes it); NAME picks some (default: all). Environment variables and headers that
look secret are not copied: each becomes a password input, asked at the first start and kept as a secret.`,
  export: `Prints the servers of an mcp.json (NAME picks some; default: all) as the standard client mcp.json of
SEP-2633: "mcpServers", "type" stdio, sse or streamable-http. \${input:ID} and \${env:NAME} stay placeholders;
no input's value is ever looked up. What the standard cannot carry (envFile, cwd) is left out and said on stderr.`,
};

/** The help for `command`, or undefined when there is no such command. */
export function commandHelp(command: string): string | undefined {
  if (!(command in COMMANDS)) return undefined;
  const name = command as CommandName;
  const parts = [
    `usage:\n${wrap(`  ${synopsis(name)}`, 116, '      ')}`,
    DETAILS[name] ?? `${COMMANDS[name].summary[0]!.toUpperCase()}${COMMANDS[name].summary.slice(1)}.`,
  ];
  const connecting = CONNECTING.includes(name);
  const carrying = CARRYING.includes(name);
  const own = optionsOf(name).filter(
    (o) => o.group === 'command' || (!connecting && o.group !== 'target') || ((name === 'servers' || name === 'run' || carrying) && o.name === '--config'),
  );
  if (own.length) parts.push(`options:\n${optionLines(own)}`);
  if (connecting) {
    parts.push(`OPTIONS (the same for every command that connects):\n${optionLines(OPTIONS.filter((o) => o.group === 'connection'))}`);
    parts.push(`AUTH OPTIONS, for HTTP servers that ask for an OAuth sign-in:\n${optionLines(OPTIONS.filter((o) => o.group === 'auth'))}
  The sign-in page opens with the command in $BROWSER when it is set; otherwise its URL is printed. Only an
  https URL (or http to this machine) is ever opened or printed.`);
  }
  if (name !== 'servers' && name !== 'run' && !carrying) parts.push(TARGET_HELP);
  parts.push(EXIT_CODES_HELP);
  return parts.join('\n\n');
}

/** The whole help: the usage, the exit codes, and where a command's own help is. */
export function generalHelp(): string {
  return `mcp-host ${VERSION}: Model Context Protocol tools from the command line.\n\n${USAGE}\n\n${EXIT_CODES_HELP}\n\nmcp-host COMMAND --help shows a command's options.`;
}
