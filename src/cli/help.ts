// `mcp-host --help`, `mcp-host <command> --help` (or `mcp-host help <command>`) and `mcp-host --version`.
// A command's help is its own lines of the usage, then what its options mean, then TARGET and the exit codes,
// so a command added to the usage has help at once.
import { version } from '../../package.json';
import { AUTH_OPTIONS_HELP } from './auth';

/** The version of the package this CLI was built from (esbuild keeps only this field of package.json). */
export const VERSION: string = version;

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

/** What a command does and the options the usage's notes do not explain. */
const DETAILS: Record<string, string> = {
  servers: `Lists the servers of an mcp.json: name, transport, and the command or URL.
  --config FILE   the mcp.json to read (default: .vscode/mcp.json in the current directory)`,
  tools: `Lists the tools of a server, one short line each.
  --json          print the tools as the server listed them`,
  call: `Calls a tool and prints the text of its result.
  --args JSON            the tool's arguments, a JSON object
  --file ARG=PATH        read a local file into the file argument ARG (repeat for more)
  --elicit decline|cancel|@answers.json
                         answer the server's questions so, or from a file:
                         {"action":"accept","content":{...},"files":{"field":"path"},"allowUploadOrigins":[...]}
                         (without it, each question is prompted on a terminal)
  --timeout MS           cancel the call after this long (a task: the whole wait, then tasks/cancel)
  --no-wait              a tool that runs as a task: print the task id instead of following the task
                         (without it, the task's status goes to stderr until its result is printed)
  --no-optional-tasks    call a tool that may run as a task (taskSupport "optional"; any tool of a server
                         with the Tasks extension) plainly; one that requires a task still runs as one
  --json                 print the raw result`,
  task: `Asks a server about one of its tasks (the ids that call --no-wait prints).
  get ID          the task's status and message
  result ID       its result (waits until the task ends)
  cancel ID       cancel it
  --json          print the raw answer`,
  login: `Signs in to an HTTP server now: its stored tokens are forgotten (its client registration is kept), the
sign-in page opens in the browser ($BROWSER, or its URL is printed) and the redirect comes back to 127.0.0.1.
Tokens are kept in $XDG_CONFIG_HOME/mcp-host/tokens.json (mode 0600) unless --no-token-store.`,
  logout: `Forgets what is stored for an HTTP server: its tokens, refresh tokens and client registrations.`,
  prompt: `Gets a prompt and prints its messages, each under its role.
  --args JSON     the prompt's arguments, a JSON object of strings
  --json          print the raw result`,
  resource: `Reads a resource of a server. A file it names (SEP-2631 FileResourceContents) is listed as a line
(name, size, type, file URI) and downloaded only when asked, its size and sha-256 checked before it is kept.
  --out FILE            write its bytes to FILE, a new file (a named file: downloaded and verified)
  --save-files DIR      download the files it names into DIR (verified; existing files are never overwritten)
  --no-file-transfer    do not declare SEP-2631 file transfer (files it names cannot be downloaded)
  --json                print the raw result`,
  skills: `Lists the skills a server serves (skills/list, every page): the name (its path when two skills share
a name), the description, and how many files it has. No file of a skill is read.
  --json          print the entries as listed (uri, frontmatter, files with sha-256 and size)`,
  skill: `Reads a skill of a server, only what is asked for. SKILL is its name, its path (acme/billing/refunds) or the URI
of its SKILL.md (one the listing leaves out is asked of the server with skills/get).
  get SKILL          load the skill: print its SKILL.md, once its size, sha-256 and frontmatter match the listing
  read SKILL FILE    print one file the skill lists (references/GUIDE.md, or its URI), verified the same way
  ls SKILL [DIR]     the skill's directory (or DIR in it): resources/directory/read when the server offers it,
                     else the files the listing names
  --json             print the content with its URI, size and whether it was verified (ls: the entries)`,
  complete: `Prints the server's suggestions for one argument of a prompt or a resource template, one per line.
  --prompt NAME               the prompt whose argument ARG is completed
  --resource-template URI     the resource template whose variable ARG is completed
  --args JSON                 the other arguments already filled in, a JSON object of strings (sent as context)
  --json                      print the raw answer`,
};

/** The lines of `usage` that belong to `command` (its first line and the indented lines after it). */
function usageLines(usage: string, command: string): string | undefined {
  const lines = usage.split('\n');
  const start = lines.findIndex((l) => l.trimStart().startsWith(`mcp-host ${command} `) || l.trim() === `mcp-host ${command}`);
  if (start < 0) return undefined;
  let end = start + 1;
  while (end < lines.length && /^\s{4,}\S/.test(lines[end]) && !lines[end].trimStart().startsWith('mcp-host ')) end++;
  return lines.slice(start, end).map((l, i) => (i === 0 ? '' : '    ') + l.trim()).join('\n');
}

/**
 * The notes after the usage's TARGET line that concern a command: those about an option of its synopsis,
 * and, for a command that takes a TARGET, those about no option in particular or about every such command.
 */
function usageNotes(usage: string, synopsis: string): string[] {
  const lines = usage.split('\n');
  const target = lines.findIndex((l) => l.startsWith('TARGET'));
  if (target < 0) return [];
  const notes: string[] = [];
  for (const line of lines.slice(target + 1)) {
    if (/^ {2}\S/.test(line)) notes.push(line);
    else if (notes.length && /^ {3,}\S/.test(line)) notes[notes.length - 1] += `\n${line}`;
  }
  const takesTarget = /TARGET/.test(synopsis);
  return notes.filter((note) => {
    const option = /^\s*(--[\w-]+)/.exec(note)?.[1];
    if (option) return synopsis.includes(option) || (takesTarget && /with a TARGET/.test(note));
    return takesTarget;
  });
}

/** The help for `command`, or undefined when `usage` has no such command. */
export function commandHelp(usage: string, command: string): string | undefined {
  const synopsis = usageLines(usage, command);
  if (!synopsis) return undefined;
  const parts = [`usage:\n  ${synopsis.split('\n').join('\n  ')}`];
  if (DETAILS[command]) parts.push(DETAILS[command]);
  if (['tools', 'call', 'prompt', 'resource', 'login'].includes(command)) parts.push(AUTH_OPTIONS_HELP);
  const notes = usageNotes(usage, synopsis);
  if (notes.length) parts.push(`notes:\n${notes.join('\n')}`);
  if (/TARGET/.test(synopsis)) parts.push(TARGET_HELP);
  parts.push(EXIT_CODES_HELP);
  return parts.join('\n\n');
}

/** The whole help: the usage, the exit codes, and where a command's own help is. */
export function generalHelp(usage: string): string {
  return `mcp-host ${VERSION}: Model Context Protocol tools from the command line.\n\n${usage}\n\n${EXIT_CODES_HELP}\n\nmcp-host COMMAND --help shows a command's options.`;
}
