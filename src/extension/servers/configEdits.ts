// Editing mcp.json text for MCP: Add Server…: jsonc-parser edits keep the user's comments and
// formatting. No `vscode` import: tested in plain Node.

import { addServerEntry } from '../../core/config/edit';

export type NewServerEntry = { type: 'stdio'; command: string; args: string[] } | { type: 'http'; url: string };

/** Splits a command line into words: whitespace separates, single and double quotes group, `\` escapes in double quotes. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && (line[i + 1] === '"' || line[i + 1] === '\\')) word += line[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (/\s/.test(c!)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** A readable server name from a command line or URL: the package or host, without scope or version. */
export function suggestServerName(entry: NewServerEntry): string {
  let base: string;
  if (entry.type === 'http') {
    try {
      base = new URL(entry.url).hostname.replace(/^www\./, '').split('.')[0] ?? 'server';
    } catch {
      base = 'server';
    }
  } else {
    const words = [entry.command, ...entry.args].filter((w) => !w.startsWith('-'));
    const runners = new Set(['npx', 'npx.cmd', 'uvx', 'pnpx', 'bunx', 'node', 'python', 'python3', 'uv', 'run', 'docker', 'deno', 'dnx']);
    const meaningful = words.find((w) => !runners.has(w.toLowerCase())) ?? entry.command;
    base = meaningful
      .split(/[\\/]/)
      .pop()!
      .replace(/@[^@/]*$/, '')
      .replace(/\.(js|mjs|cjs|ts|py|exe|cmd)$/i, '');
    if (base === '') base = meaningful.replace(/^@/, '').split('/').pop() ?? 'server';
  }
  const cleaned = base
    .replace(/^server-|-server$|^mcp-|-mcp$/gi, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return cleaned || 'server';
}

export { addSandboxEntry, enableSandbox, serverNamesIn, uniqueServerName } from '../../core/config/edit';

/** The config text with the server added under `servers`; an empty or blank file becomes a new config. */
export function addServerToConfig(text: string, name: string, entry: NewServerEntry): string {
  const value = entry.type === 'stdio' ? { type: 'stdio', command: entry.command, args: entry.args } : { type: 'http', url: entry.url };
  return addServerEntry(text, name, value);
}
