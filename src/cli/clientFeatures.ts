// The client features the CLI declares beyond tools: the current directory as its one root, the server's
// log messages printed to stderr at the level asked with --log-level, and sampling with --sampling-command.
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMcpLogLevel, MCP_LOG_LEVELS, type ConnectionOptions, type McpLogLevel, type ServerConnection } from '../core/connection';
import type { Completion, CompletionRef } from '../shared/completion';
import { cliSamplingHandler } from './sampling';
import { terminalLine, terminalText } from './terminal';

/** --log-level's value, checked: one of the MCP levels. */
export function parseLogLevel(value: string): McpLogLevel | string {
  return isMcpLogLevel(value) ? value : `--log-level must be one of ${MCP_LOG_LEVELS.join(', ')} (got "${value}")`;
}

/** Connection options for the CLI's client features (sampling is declared only with a command to answer it). */
export function cliFeatureOptions(
  cwd: string,
  logLevel: McpLogLevel | undefined,
  samplingCommand: string | undefined,
  env: NodeJS.ProcessEnv,
): Partial<ConnectionOptions> {
  const root = { uri: pathToFileURL(cwd).href, name: basename(cwd) || cwd };
  return {
    roots: () => [root],
    serverLogLevel: logLevel,
    ...(samplingCommand !== undefined ? { sampling: cliSamplingHandler(samplingCommand, { cwd, env }) } : {}),
  };
}

/** With --log-level, each message of the server is printed to stderr as `[level] [server:logger] text`. */
export function printServerLog(connection: ServerConnection, logLevel: McpLogLevel | undefined, stderr: NodeJS.WritableStream): void {
  if (!logLevel) return;
  connection.onDidLog((m) => stderr.write(`[${m.level}] ${terminalText(m.text)}\n`));
}

/** What `complete` completes: --prompt NAME or --resource-template URI (exactly one). */
export function completionRef(a: { prompt?: string; resourceTemplate?: string }): CompletionRef | undefined {
  if ((a.prompt === undefined) === (a.resourceTemplate === undefined)) return undefined;
  return a.prompt !== undefined ? { type: 'ref/prompt', name: a.prompt } : { type: 'ref/resource', uri: a.resourceTemplate! };
}

/** The suggestions, one a line (terminal-safe), or the bounded answer as JSON. */
export function completionText(answer: Completion, json: boolean): string {
  if (json) return `${JSON.stringify(answer, null, 2)}\n`;
  return answer.values.map((v) => `${terminalLine(v, 1000)}\n`).join('');
}
