// `--elicit decline|cancel|@answers.json`, and terminal prompts when stdin is a TTY and no
// `--elicit` was given. The same answers serve elicitation requests and the URLs a -32042 error names.
// The CLI never opens URLs: it prints them.

import { dirname, resolve } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import type { TransportKind } from '../core/config/types';
import type { ElicitationHandler } from '../core/connection/types';
import { createElicitationHandler } from '../core/elicitation/handler';
import type { ElicitationUi, FormAnswer, FormElicitationRequest, UrlElicitationRequest } from '../core/elicitation/types';
import type { UrlRetryOptions } from '../core/elicitation/urlRetry';
import { InputRefusedError } from '../core/errors';
import { formatBytes, inlineLimitsFor, type InlineLimitOverrides } from '../core/files/limits';
import type { FormField } from '../shared/formModel';
import { FileReadError, readBoundedTextSync } from '../core/io/boundedRead';
import { parseJsonBounded } from '../core/io/json';
import { FILE_LIMITS } from '../core/io/limits';
import { setOwn } from '../core/io/own';
import type { Logger } from '../core/log';
import { terminalText } from './terminal';

/** With an answers file, how long to wait for the server to report a URL done before retrying the call anyway (--url-wait). */
export const URL_DONE_WAIT_MS = 60_000;

interface AnswersFile {
  /** The `--elicit @file` option, for messages. */
  source: string;
  action: 'accept' | 'decline' | 'cancel';
  content: Record<string, unknown>;
  /** Field name -> absolute paths (relative ones are resolved against the answers file's folder). */
  files: Record<string, string[]>;
  /** Origins (other than the server's own) the user allows SEP-1306 uploads to. */
  allowUploadOrigins: string[];
}

function readAnswers(spec: string): AnswersFile {
  const file = resolve(spec.slice(1));
  const bad = (why: string) => new InputRefusedError(`--elicit ${spec}: ${why}`, '--elicit');
  let text: string;
  try {
    text = readBoundedTextSync(file, FILE_LIMITS.answers, 'the answers file');
  } catch (e) {
    const code = (e as FileReadError).code;
    throw bad(code === 'ENOTREG' || code === 'EFBIG' ? (e as Error).message : `cannot read the file (${code ?? (e as Error).message})`);
  }
  let raw: unknown;
  try {
    raw = parseJsonBounded(text);
  } catch (e) {
    throw bad(`not valid JSON (${(e as Error).message})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad('must hold a JSON object like {"action":"accept","content":{...}}');
  const o = raw as Record<string, unknown>;
  if (o.action !== 'accept' && o.action !== 'decline' && o.action !== 'cancel') throw bad('"action" must be "accept", "decline" or "cancel"');
  if (o.content !== undefined && (typeof o.content !== 'object' || o.content === null || Array.isArray(o.content))) throw bad('"content" must be an object');
  const files: Record<string, string[]> = {};
  if (o.files !== undefined) {
    if (typeof o.files !== 'object' || o.files === null || Array.isArray(o.files)) throw bad('"files" must map field names to a path or a list of paths');
    for (const [field, v] of Object.entries(o.files)) {
      const list = Array.isArray(v) ? v : [v];
      if (!list.every((p) => typeof p === 'string' && p !== '')) throw bad(`"files.${field}" must be a path or a list of paths`);
      if (list.some((p) => /^data:/i.test(p as string))) throw bad(`"files.${field}" must name local files, not data URIs`);
      setOwn(
        files,
        field,
        (list as string[]).map((p) => resolve(dirname(file), p)),
      );
    }
  }
  const origins = Array.isArray(o.allowUploadOrigins) ? o.allowUploadOrigins.filter((x): x is string => typeof x === 'string') : [];
  return { source: `--elicit ${spec}`, action: o.action, content: (o.content as Record<string, unknown>) ?? {}, files, allowUploadOrigins: origins };
}

function printUrl(out: NodeJS.WritableStream, req: UrlElicitationRequest): void {
  out.write(`\n${terminalText(req.server)} asks you to open a URL: ${terminalText(req.message)}\n`);
  out.write(
    `  URL:    ${terminalText(req.url)}\n  Domain: ${terminalText(req.domain)}${req.domainUnicode ? ` (displays as "${terminalText(req.domainUnicode)}")` : ''}\n`,
  );
  for (const w of req.warnings) out.write(`  Warning: ${terminalText(w)}\n`);
}

/** Refuses answers-file keys that name no field of this form (a typo would otherwise be dropped silently). */
function checkAnswerKeys(answers: AnswersFile, req: FormElicitationRequest): void {
  const fields = req.form.fields;
  const fileNames = new Set(fields.filter((f) => f.kind === 'file').map((f) => f.path[0]!));
  const otherNames = new Set(fields.filter((f) => f.kind !== 'file').map((f) => f.path[0]!));
  const listed = (names: Set<string>) => (names.size ? [...names].map((n) => terminalText(n)).join(', ') : 'none');
  const refuse = (key: string, why: string) => new InputRefusedError(`${answers.source}: "${terminalText(key)}" ${why}`, key);
  for (const key of Object.keys(answers.content)) {
    if (fileNames.has(key)) throw refuse(`content.${key}`, `is a file field of ${terminalText(req.server)}'s question: give its path under "files"`);
    if (!otherNames.has(key)) throw refuse(`content.${key}`, `matches no field of ${terminalText(req.server)}'s question (fields: ${listed(otherNames)})`);
  }
  for (const key of Object.keys(answers.files)) {
    if (!fileNames.has(key))
      throw refuse(`files.${key}`, `matches no file field of ${terminalText(req.server)}'s question (file fields: ${listed(fileNames)})`);
  }
}

function answersUi(answers: AnswersFile, out: NodeJS.WritableStream): ElicitationUi {
  return {
    async form(req: FormElicitationRequest): Promise<FormAnswer> {
      if (answers.action !== 'accept') return { action: answers.action };
      checkAnswerKeys(answers, req);
      return { action: 'accept', values: { ...req.values, ...answers.content }, files: answers.files };
    },
    async url(req) {
      printUrl(out, req);
      if (answers.action === 'accept') out.write('  Consent given by the answers file. The CLI does not open URLs: open it yourself.\n');
      else out.write(`  The answers file says ${answers.action}.\n`);
      return answers.action;
    },
    async confirmUploadDestination(req) {
      return answers.allowUploadOrigins.includes(req.destination);
    },
    notify(message) {
      out.write(`${terminalText(message)}\n`);
    },
  };
}

function describeField(f: FormField): string {
  const parts: string[] = [f.kind === 'enum' ? 'choice' : f.kind === 'multiEnum' ? 'choices' : f.kind];
  if (f.kind === 'string' && f.format) parts.push(f.format);
  if ((f.kind === 'number' || f.kind === 'integer') && (f.minimum !== undefined || f.maximum !== undefined))
    parts.push(`${f.minimum ?? ''}..${f.maximum ?? ''}`);
  if (f.kind === 'file') parts.push(f.accept.length ? f.accept.join(', ') : 'any file', ...(f.maxSize !== undefined ? [`max ${formatBytes(f.maxSize)}`] : []));
  if (f.required) parts.push('required');
  return parts.join(', ');
}

/** Lines from a stream, one at a time; lines typed (or pasted) ahead are kept, not lost. */
export class LineReader {
  private rl?: Interface;
  private readonly lines: string[] = [];
  private waiter?: (line: string | undefined) => void;
  private ended = false;
  constructor(private readonly input: NodeJS.ReadableStream) {}

  async next(signal: AbortSignal): Promise<string> {
    if (!this.rl) {
      this.rl = createInterface({ input: this.input, terminal: false });
      this.rl.on('line', (line) => {
        if (this.waiter) this.waiter(line);
        else this.lines.push(line);
      });
      this.rl.on('close', () => {
        this.ended = true;
        this.waiter?.(undefined);
      });
    }
    const queued = this.lines.shift();
    if (queued !== undefined) return queued;
    if (this.ended) throw new Error('the terminal input ended');
    signal.throwIfAborted();
    this.rl.resume();
    const line = await new Promise<string | undefined>((resolve, reject) => {
      const onAbort = () => {
        this.waiter = undefined;
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiter = (l) => {
        this.waiter = undefined;
        signal.removeEventListener('abort', onAbort);
        resolve(l);
      };
    });
    if (this.lines.length === 0) this.rl.pause();
    if (line === undefined) throw new Error('the terminal input ended');
    return line;
  }
}

type WaitForRetry = NonNullable<UrlRetryOptions['waitForRetry']>;

/** The server says when a URL is done (notifications/elicitation/complete); without that, retry after a while. */
function boundedWait(out: NodeJS.WritableStream, waitMs: number): WaitForRetry {
  return (req, signal) => {
    out.write(`  Waiting up to ${waitMs / 1000} s for ${terminalText(req.server)} to report it done, then retrying the call.\n`);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve('retry'), waitMs);
      signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
    });
  };
}

/** `--elicit decline|cancel`: every question gets that answer; URLs are still printed. */
function fixedUi(action: 'decline' | 'cancel', out: NodeJS.WritableStream, log: Logger): ElicitationUi {
  return {
    async form(req) {
      log.info(`${req.server} asked: ${terminalText(req.message).slice(0, 200)} -> ${action} (--elicit ${action})`);
      return { action };
    },
    async url(req) {
      printUrl(out, req);
      out.write(`  Answered ${action} (--elicit ${action}).\n`);
      return action;
    },
  };
}

/** No --elicit and no terminal: questions are cancelled with a hint. */
function noTerminalUi(out: NodeJS.WritableStream, log: Logger): ElicitationUi {
  const hint = 'there is no terminal to ask on; cancelled. Pass --elicit decline|cancel|@answers.json.';
  return {
    async form(req) {
      log.warn(`${req.server} asked a question (${terminalText(req.message).slice(0, 200)}), but ${hint}`);
      return { action: 'cancel' };
    },
    async url(req) {
      printUrl(out, req);
      out.write(`  Not opened: ${hint}\n`);
      return 'cancel';
    },
  };
}

function promptUi(input: NodeJS.ReadableStream, out: NodeJS.WritableStream): ElicitationUi & { waitForRetry: WaitForRetry } {
  const reader = new LineReader(input);
  const ask = async (question: string, signal: AbortSignal): Promise<string> => {
    out.write(question);
    return (await reader.next(signal)).trim();
  };
  const choose = async <T extends string>(question: string, options: Record<string, T>, signal: AbortSignal): Promise<T> => {
    for (;;) {
      const a = (await ask(question, signal)).toLowerCase();
      const hit = options[a] ?? options[a.slice(0, 1)];
      if (hit) return hit;
    }
  };

  const askField = async (f: FormField, current: unknown, signal: AbortSignal, files: Record<string, string[]>): Promise<unknown> => {
    const name = f.path[f.path.length - 1]!;
    const shown = current === undefined ? '' : ` [${terminalText(typeof current === 'string' ? current : JSON.stringify(current))}]`;
    out.write(`\n${terminalText(f.label)} (${describeField(f)})${f.description ? `\n  ${terminalText(f.description)}` : ''}\n`);
    if (f.kind === 'enum' || f.kind === 'multiEnum') {
      f.options.forEach((o, i) => out.write(`  ${i + 1}. ${terminalText(o.label)}\n`));
      const a = await ask(`${f.kind === 'enum' ? 'Number' : 'Numbers, comma-separated'}${shown}: `, signal);
      if (a === '') return current;
      const picked = a
        .split(',')
        .map((x) => f.options[Number(x.trim()) - 1]?.value)
        .filter((v) => v !== undefined);
      return f.kind === 'enum' ? (picked[0] ?? a) : picked;
    }
    if (f.kind === 'boolean') {
      const a = (await ask(`y/n${shown}: `, signal)).toLowerCase();
      return a === '' ? current : a.startsWith('y') || a === 'true';
    }
    if (f.kind === 'file') {
      for (;;) {
        const a = await ask(`Path to a local file${f.multiple ? ' (several: separate with ;)' : ''}: `, signal);
        if (/^data:/i.test(a)) {
          out.write('  Give a local file path, not a data URI.\n');
          continue;
        }
        if (a)
          files[name] = a
            .split(f.multiple ? ';' : /\u0000/)
            .map((p) => resolve(p.trim()))
            .filter(Boolean);
        return undefined;
      }
    }
    const a = await ask(`${f.kind === 'json' || f.kind === 'object' || f.kind === 'array' ? 'JSON' : 'Value'}${shown}: `, signal);
    return a === '' ? current : a;
  };

  return {
    async form(req, signal) {
      out.write(`\n${terminalText(req.server)} asks: ${terminalText(req.message)}\n`);
      for (const w of req.form.warnings) out.write(`  Note: ${terminalText(w)}\n`);
      if (req.errors) for (const [id, msg] of Object.entries(req.errors)) out.write(`  Problem with ${id || 'the form'}: ${terminalText(msg)}\n`);
      const action = await choose('Answer? [a]ccept, [d]ecline, [c]ancel: ', { a: 'accept', d: 'decline', c: 'cancel' } as const, signal);
      if (action !== 'accept') return { action };
      const values = { ...req.values };
      const files: Record<string, string[]> = {};
      for (const f of req.form.fields) {
        const v = await askField(f, values[f.path[0]!], signal, files);
        if (v === undefined) delete values[f.path[0]!];
        else values[f.path[0]!] = v;
      }
      const send = await choose('Send this answer? [y]es, [d]ecline, [c]ancel: ', { y: 'accept', d: 'decline', c: 'cancel' } as const, signal);
      return send === 'accept' ? { action: 'accept', values, files } : { action: send };
    },
    async url(req, signal) {
      printUrl(out, req);
      const a = await choose('Will you open it yourself? [y]es, [d]ecline, [c]ancel: ', { y: 'accept', d: 'decline', c: 'cancel' } as const, signal);
      if (a === 'accept') out.write('  The CLI does not open URLs: open it in your browser.\n');
      return a;
    },
    async waitForRetry(_req, signal) {
      const a = (await ask('  Press Enter once you are done there to retry now, or type c to cancel: ', signal)).toLowerCase();
      return a.startsWith('c') ? 'cancel' : 'retry';
    },
    async confirmFiles(req, signal) {
      // Asked only when a file is uploaded out of band (SEP-2631: to the host authorized just now) or to another
      // origin (SEP-1306): this yes is then the consent. "Send this answer?" covered the rest. No returns to the question.
      const uploads = req.files.filter((f) => f.upload || f.otherOrigin);
      if (uploads.length === 0) return true;
      out.write('\n');
      for (const f of uploads)
        out.write(`${terminalText(f.field)}: ${terminalText(f.name)} (${formatBytes(f.size)}) uploaded to ${terminalText(f.destination)}\n`);
      if (uploads.some((f) => f.otherOrigin))
        out.write(`That is storage ${terminalText(req.server)} authorized, not the MCP server itself; your MCP credentials are not sent there.\n`);
      return (await choose('Upload? [y]es, [n]o (back to the question): ', { y: 'y', n: 'n' } as const, signal)) === 'y';
    },
    async confirmUploadDestination(req, signal) {
      out.write(
        `\n${terminalText(req.server)} wants ${terminalText(req.fileName)} (${formatBytes(req.size)}) uploaded to ${terminalText(req.destination)}, which is not the server's own address. Your MCP token is not sent there.\n`,
      );
      return (await choose('Upload there? [y]es, [n]o: ', { y: 'y', n: 'n' } as const, signal)) === 'y';
    },
    notify(message) {
      out.write(`${terminalText(message)}\n`);
    },
  };
}

/**
 * The CLI's elicitation handler. `refusal`: an answer refused locally (a value or file that failed its checks,
 * an answers-file key that names no field): the server got `cancel` (none of the content) and the command
 * must exit 1. `ui` and `waitForRetry` answer the URLs of a -32042 error: give them to callToolWithUrlElicitation.
 */
export type CliElicitationHandler = ElicitationHandler & {
  readonly refusal?: InputRefusedError;
  readonly ui: ElicitationUi;
  readonly waitForRetry: WaitForRetry;
};

export interface CliElicitContext {
  interactive: boolean;
  transport: TransportKind;
  log: Logger;
  /** SEP-1306: the per-file upload limit the CLI declared (maxFileSize). */
  binaryMaxFileSize?: number;
  /** Inline limit overrides, SEP-2631 transfer included (files over the inline size are uploaded where allowed). */
  limits?: InlineLimitOverrides;
  /** With an answers file: how long to wait for a required URL's completion before retrying (default URL_DONE_WAIT_MS). */
  urlWaitMs?: number;
  /** Prompts read from here (default process.stdin) and are written to `output` (default process.stderr). */
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
}

/**
 * The CLI's elicitation handler for `--elicit` (or terminal prompts, or, with neither, cancel). Throws
 * InputRefusedError on a bad option or answers file.
 */
export function createCliElicitationHandler(option: string | undefined, context: CliElicitContext): CliElicitationHandler {
  const out = context.output ?? process.stderr;
  const { log } = context;
  if (option !== undefined && option !== 'decline' && option !== 'cancel' && !option.startsWith('@')) {
    throw new InputRefusedError(`--elicit must be decline, cancel or @answers.json (got "${option}")`, '--elicit');
  }
  const interactive = option === undefined && context.interactive;
  let ui: ElicitationUi;
  let waitForRetry: WaitForRetry = async () => 'cancel';
  if (option === 'decline' || option === 'cancel') ui = fixedUi(option, out, log);
  else if (option !== undefined) {
    ui = answersUi(readAnswers(option), out);
    waitForRetry = boundedWait(out, context.urlWaitMs ?? URL_DONE_WAIT_MS);
  } else if (interactive) {
    const prompts = promptUi(context.input ?? process.stdin, out);
    ui = prompts;
    waitForRetry = prompts.waitForRetry;
  } else ui = noTerminalUi(out, log);

  const handler = createElicitationHandler(ui, {
    log,
    transport: context.transport,
    interactive,
    binaryMaxFileSize: context.binaryMaxFileSize,
    limits: inlineLimitsFor(context.transport, context.limits),
  });
  let refusal: InputRefusedError | undefined;
  const wrapped = async (...args: Parameters<ElicitationHandler>) => {
    try {
      return await handler(...args);
    } catch (e) {
      if (!(e instanceof InputRefusedError)) throw e;
      refusal ??= e;
      return { action: 'cancel' as const };
    }
  };
  return Object.defineProperties(wrapped, {
    refusal: { get: () => refusal },
    ui: { value: ui },
    waitForRetry: { value: waitForRetry },
  }) as CliElicitationHandler;
}
