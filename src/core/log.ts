import { redactDataUris } from './files/redact';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';
export type LogSink = (level: LogLevel, message: string) => void;

const ORDER: Record<LogLevel, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4 };

/** What a secret value is replaced with in a log line. */
export const SECRET_MASK = '********';

/** Credentials recognisable by their shape: an Authorization header's value, OAuth token fields in JSON. */
const CREDENTIAL_SHAPES: Array<[RegExp, string]> = [
  [/\b(Bearer|DPoP)\s+[A-Za-z0-9\-._~+/]{8,}=*/gi, `$1 ${SECRET_MASK}`],
  [/("(?:access_token|refresh_token|id_token|client_secret|assertion|subject_token|code_verifier)"\s*:\s*")[^"]*"/g, `$1${SECRET_MASK}"`],
];

/**
 * A leveled logger whose every line is redacted before it reaches the sink. It is also the one home of the
 * host's secrets (tokens, client secrets, secret inputs): whatever shows server text masks them with `maskSecretsIn`.
 */
export class Logger {
  /** Secret values and their JSON-escaped forms (as they appear in traced messages), longest first. */
  private secrets: string[] = [];

  constructor(
    private readonly sink: LogSink,
    public level: LogLevel = 'info',
  ) {}

  /** From now on every occurrence of these values (e.g. `password: true` inputs) is logged as SECRET_MASK. */
  maskSecrets(values: readonly string[]): void {
    const forms = values.filter((v) => v !== '').flatMap((v) => [v, JSON.stringify(v).slice(1, -1)]);
    this.secrets = [...new Set([...this.secrets, ...forms])].sort((a, b) => b.length - a.length);
  }

  isEnabled(level: LogLevel): boolean {
    return ORDER[level] >= ORDER[this.level];
  }

  /** Trace lines (protocol traffic) are built only when trace is on. */
  trace(build: () => string): void {
    if (this.isEnabled('trace')) this.emit('trace', build());
  }
  debug(message: string): void {
    this.emit('debug', message);
  }
  info(message: string): void {
    this.emit('info', message);
  }
  warn(message: string): void {
    this.emit('warn', message);
  }
  error(message: string): void {
    this.emit('error', message);
  }

  /** `text` with the host's own secrets, and anything shaped like a credential, masked. */
  maskSecretsIn(text: string): string {
    let line = text;
    for (const secret of this.secrets) line = line.split(secret).join(SECRET_MASK);
    for (const [shape, mask] of CREDENTIAL_SHAPES) line = line.replace(shape, mask);
    return line;
  }

  private emit(level: LogLevel, message: string): void {
    if (!this.isEnabled(level)) return;
    const line = redactDataUris(this.maskSecretsIn(message));
    // A sink that fails (an output channel VS Code closed during shutdown) must never break what is being logged.
    try {
      this.sink(level, line);
    } catch {
      /* the line is lost, the caller carries on */
    }
  }
}

/** A logger that drops everything (for callers that do not care). */
export const silentLogger = new Logger(() => undefined, 'error');
