// MCP logging (notifications/message, logging/setLevel): the server's own log lines, mapped onto the host's
// log levels, and the host's level sent back to the server in the shape of its era.
import type { LoggingLevel, LoggingMessageNotificationParams } from '@modelcontextprotocol/client';
import type { LogLevel } from '../log';

export type McpLogLevel = LoggingLevel;

/** The MCP levels, least severe first (RFC 5424 order). */
export const MCP_LOG_LEVELS: readonly McpLogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

export function isMcpLogLevel(value: unknown): value is McpLogLevel {
  return typeof value === 'string' && (MCP_LOG_LEVELS as readonly string[]).includes(value);
}

/** The host level a server's message is written at: notice is info, critical and above are errors. */
export function hostLevelOf(level: McpLogLevel): Exclude<LogLevel, 'trace'> {
  switch (level) {
    case 'debug':
      return 'debug';
    case 'info':
    case 'notice':
      return 'info';
    case 'warning':
      return 'warn';
    default:
      return 'error';
  }
}

/** The least severe MCP level a host log level shows (trace shows everything). */
export function mcpLevelFor(level: LogLevel): McpLogLevel {
  switch (level) {
    case 'trace':
    case 'debug':
      return 'debug';
    case 'info':
      return 'info';
    case 'warn':
      return 'warning';
    case 'error':
      return 'error';
  }
}

/** A server's log message is cut to this many characters (its `data` may be any JSON). */
export const SERVER_LOG_MAX_CHARS = 8000;

/** One line for a server's log message: `[server:logger] text` (data that is not a string is shown as JSON). */
export function formatServerLog(params: Pick<LoggingMessageNotificationParams, 'level' | 'logger' | 'data'>): string {
  let text: string;
  if (typeof params.data === 'string') {
    text = params.data;
  } else {
    try {
      text = JSON.stringify(params.data) ?? String(params.data);
    } catch {
      text = String(params.data);
    }
  }
  if (text.length > SERVER_LOG_MAX_CHARS) text = `${text.slice(0, SERVER_LOG_MAX_CHARS)}… (${text.length} characters)`;
  const logger = typeof params.logger === 'string' && params.logger !== '' ? `:${params.logger.slice(0, 100)}` : '';
  return `[server${logger}] ${text}`;
}
