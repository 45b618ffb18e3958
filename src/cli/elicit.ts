// `--elicit decline|cancel|@answers.json`, and terminal prompts when stdin is a TTY and no
// `--elicit` was given. The CLI never opens URLs: it prints them.

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import type { ElicitationContext, ElicitationHandler, ElicitRequestParamsLoose } from '../core/connection/types';
import { createElicitationHandler } from '../core/elicitation/handler';
import type { ElicitationUi, FormAnswer, FormElicitationRequest, UrlElicitationRequest } from '../core/elicitation/types';
import { InputRefusedError } from '../core/errors';
import { formatBytes } from '../core/files/limits';
import type { FormField } from '../core/forms/model';
import type { Logger } from '../core/log';

export interface CliElicitContext {
  interactive: boolean;
  transport: 'stdio' | 'http' | 'sse';
  log: Logger;
  /** Prompts read from here (default process.stdin) and are written to `output` (default process.stderr). */
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
}

interface AnswersFile {
  action: 'accept' | 'decline' | 'cancel';
  content: Record<string, unknown>;
  /** Field name -> absolute paths (relative ones are resolved against the answers file's folder). */
  files: Record<string, string[]>;
  /** Origins (other than the server's own) the user allows SEP-1306 uploads to. */
  allowUploadOrigins: string[];
}

/** Server text for a terminal: control characters (escape sequences included) are shown, not obeyed. */
export function terminalText(text: string): string {
  return String(text).replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function readAnswers(spec: string): AnswersFile {
  const file = resolve(spec.slice(1));
  const bad = (why: string) => new InputRefusedError(`--elicit ${spec}: ${why}`, '--elicit');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw bad(code ? `cannot read the file (${code})` : `not valid JSON (${(e as Error).message})`);
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
      files[field] = (list as string[]).map((p) => resolve(dirname(file), p));
    }
  }
  const origins = Array.isArray(o.allowUploadOrigins) ? o.allowUploadOrigins.filter((x): x is string => typeof x === 'string') : [];
  return { action: o.action, content: (o.content as Record<string, unknown>) ?? {}, files, allowUploadOrigins: origins };
}

function printUrl(out: NodeJS.WritableStream, req: UrlElicitationRequest): void {
  out.write(`\n${terminalText(req.server)} asks you to open a URL: ${terminalText(req.message)}\n`);
  out.write(`  URL:    ${terminalText(req.url)}\n  Domain: ${terminalText(req.domain)}${req.domainUnicode ? ` (displays as "${terminalText(req.domainUnicode)}")` : ''}\n`);
  for (const w of req.warnings) out.write(`  Warning: ${terminalText(w)}\n`);
}

function answersUi(answers: AnswersFile, out: NodeJS.WritableStream): ElicitationUi {
  return {
    async form(req: FormElicitationRequest): Promise<FormAnswer> {
      if (answers.action !== 'accept') return { action: answers.action };
      return { action: 'accept', values: { ...req.values, ...answers.content }, files: answers.files };
    },
    async url(req) {
      printUrl(out, req);
      if (answers.action === 'accept') out.write('  Consent given by the answers file. The CLI does not open URLs: open it yourself.\n');
      return answers.action;
    },
    async confirmUploadDestination(req) {
      return answers.allowUploadOrigins.includes(req.destination);
    },
    notify(message) { out.write(`${terminalText(message)}\n`); },
  };
}

function describeField(f: FormField): string {
  const parts: string[] = [f.kind === 'enum' ? 'choice' : f.kind === 'multiEnum' ? 'choices' : f.kind];
  if (f.kind === 'string' && f.format) parts.push(f.format);
  if ((f.kind === 'number' || f.kind === 'integer') && (f.minimum !== undefined || f.maximum !== undefined)) parts.push(`${f.minimum ?? ''}..${f.maximum ?? ''}`);
  if (f.kind === 'file') parts.push(f.accept.length ? f.accept.join(', ') : 'any file', ...(f.maxSize !== undefined ? [`max ${formatBytes(f.maxSize)}`] : []));
  if (f.required) parts.push('required');
  return parts.join(', ');
}

/** Lines from a stream, one at a time; lines typed (or pasted) ahead are kept, not lost. */
class LineReader {
  private rl?: Interface;
  private readonly lines: string[] = [];
  private waiter?: (line: string | undefined) => void;
  private ended = false;
  constructor(private readonly input: NodeJS.ReadableStream) {}

  async next(signal: AbortSignal): Promise<string> {
    if (!this.rl) {
      this.rl = createInterface({ input: this.input, terminal: false });
      this.rl.on('line', (line) => { if (this.waiter) this.waiter(line); else this.lines.push(line); });
      this.rl.on('close', () => { this.ended = true; this.waiter?.(undefined); });
    }
    const queued = this.lines.shift();
    if (queued !== undefined) return queued;
    if (this.ended) throw new Error('the terminal input ended');
    signal.throwIfAborted();
    this.rl.resume();
    const line = await new Promise<string | undefined>((resolve, reject) => {
      const onAbort = () => { this.waiter = undefined; reject(signal.reason); };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiter = (l) => { this.waiter = undefined; signal.removeEventListener('abort', onAbort); resolve(l); };
    });
    if (this.lines.length === 0) this.rl.pause();
    if (line === undefined) throw new Error('the terminal input ended');
    return line;
  }
}

function promptUi(input: NodeJS.ReadableStream, out: NodeJS.WritableStream): ElicitationUi {
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
      const picked = a.split(',').map((x) => f.options[Number(x.trim()) - 1]?.value).filter((v) => v !== undefined);
      return f.kind === 'enum' ? picked[0] ?? a : picked;
    }
    if (f.kind === 'boolean') {
      const a = (await ask(`y/n${shown}: `, signal)).toLowerCase();
      return a === '' ? current : a.startsWith('y') || a === 'true';
    }
    if (f.kind === 'file') {
      for (;;) {
        const a = await ask(`Path to a local file${f.multiple ? ' (several: separate with ;)' : ''}: `, signal);
        if (/^data:/i.test(a)) { out.write('  Give a local file path, not a data URI.\n'); continue; }
        if (a) files[name] = a.split(f.multiple ? ';' : /\u0000/).map((p) => resolve(p.trim())).filter(Boolean);
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
    async confirmUploadDestination(req, signal) {
      out.write(`\n${terminalText(req.server)} wants ${terminalText(req.fileName)} (${formatBytes(req.size)}) uploaded to ${terminalText(req.destination)}, which is not the server's own address. Your MCP token is not sent there.\n`);
      return (await choose('Upload there? [y]es, [n]o: ', { y: 'y', n: 'n' } as const, signal)) === 'y';
    },
    notify(message) { out.write(`${terminalText(message)}\n`); },
  };
}

/**
 * An elicitation handler that remembers an answer refused locally (a value or file that failed its
 * checks): the server gets `cancel` (none of the content), and the command must then exit 1 with `refusal`.
 */
export type CliElicitationHandler = ElicitationHandler & { readonly refusal?: InputRefusedError };

function rememberingRefusal(handler: ElicitationHandler): CliElicitationHandler {
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
  return Object.defineProperty(wrapped, 'refusal', { get: () => refusal }) as CliElicitationHandler;
}

/**
 * The CLI's elicitation handler for `--elicit` (or terminal prompts). Throws InputRefusedError on a bad
 * option or answers file; after the call, a non-empty `refusal` means exit 1.
 */
export function createCliElicitationHandler(option: string | undefined, context: CliElicitContext): CliElicitationHandler {
  const out = context.output ?? process.stderr;
  const { log } = context;
  if (option === 'decline' || option === 'cancel') {
    return async (params: ElicitRequestParamsLoose, ctx: ElicitationContext) => {
      log.info(`${ctx.server} asked (${params.mode ?? 'form'}): ${terminalText(String(params.message ?? ''))} -> ${option} (--elicit ${option})`);
      if (params.mode === 'url') printUrl(out, { server: ctx.server, message: String(params.message ?? ''), url: String(params.url ?? ''), domain: safeHost(params.url), warnings: [] });
      return { action: option };
    };
  }
  if (option !== undefined && !option.startsWith('@')) {
    throw new InputRefusedError(`--elicit must be decline, cancel or @answers.json (got "${option}")`, '--elicit');
  }
  if (option === undefined && !context.interactive) {
    return async (params: ElicitRequestParamsLoose, ctx: ElicitationContext) => {
      log.warn(`${ctx.server} asked a question (${terminalText(String(params.message ?? '')).slice(0, 200)}), but there is no terminal to ask it on; cancelled. Pass --elicit decline|cancel|@answers.json.`);
      return { action: 'cancel' };
    };
  }
  const ui = option ? answersUi(readAnswers(option), out) : promptUi(context.input ?? process.stdin, out);
  return rememberingRefusal(createElicitationHandler(ui, { log, transport: context.transport, interactive: option === undefined }));
}

function safeHost(url: unknown): string {
  try { return new URL(String(url)).hostname; } catch { return '(not a valid URL)'; }
}
