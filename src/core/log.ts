import { redactDataUris } from './files/redact';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';
export type LogSink = (level: LogLevel, message: string) => void;

const ORDER: Record<LogLevel, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4 };

/** A leveled logger whose every line is redacted before it reaches the sink. */
export class Logger {
  constructor(private readonly sink: LogSink, public level: LogLevel = 'info') {}

  isEnabled(level: LogLevel): boolean {
    return ORDER[level] >= ORDER[this.level];
  }

  /** Trace lines (protocol traffic) are built only when trace is on. */
  trace(build: () => string): void {
    if (this.isEnabled('trace')) this.emit('trace', build());
  }
  debug(message: string): void { this.emit('debug', message); }
  info(message: string): void { this.emit('info', message); }
  warn(message: string): void { this.emit('warn', message); }
  error(message: string): void { this.emit('error', message); }

  private emit(level: LogLevel, message: string): void {
    if (this.isEnabled(level)) this.sink(level, redactDataUris(message));
  }
}

/** A logger that drops everything (for callers that do not care). */
export const silentLogger = new Logger(() => undefined, 'error');
