// The data plane: file bodies streamed from disk to an upload URL, and downloads streamed to a temporary file
// that is verified (byte count, sha-256) before it is linked into place. One reused buffer per upload, so
// memory stays flat whatever the file's size. Every URL passes the destination rules first (net/destination).

import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, link, lstat, readdir, unlink } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { basename, dirname, join } from 'node:path';
import { checkDestination, DestinationRefusedError, guardedLookup, type DestinationPolicy } from '../../net/destination';
import { changedSinceCheck, type CheckedFile } from '../check';
import { openRegularFile } from '../../io/boundedRead';
import { formatBytes } from '../limits';
import { linkAbort } from '../../events';
import { HostError } from '../../errors';

const CHUNK_BYTES = 256 * 1024;
/** Headers the data plane sets itself: a descriptor's value for them is not sent. */
const OWN_HEADERS = new Set(['content-length', 'transfer-encoding', 'host', 'connection']);
/** How much of an error body is read to describe the failure. */
const ERROR_BODY_BYTES = 4096;

/** The sha-256 of bytes as SEP-2631 writes it: base64url without padding. */
export function digestText(hash: Buffer): string {
  return hash.toString('base64url');
}

/** The sha-256 (base64url) of a file, read in one streaming pass; refuses a file that changed size meanwhile. */
export async function fileSha256(file: Pick<CheckedFile, 'path' | 'name' | 'size'>, signal?: AbortSignal, onBytes?: (read: number) => void): Promise<string> {
  const { handle } = await openRegularFile(file.path);
  try {
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafe(4 * 1024 * 1024);
    let total = 0;
    for (;;) {
      signal?.throwIfAborted();
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > file.size) break;
      hash.update(chunk.subarray(0, bytesRead));
      onBytes?.(total);
    }
    if (total !== file.size) throw new Error(`${file.name} changed while it was being read; choose it again`);
    return digestText(hash.digest());
  } finally {
    await handle.close();
  }
}

/** An HTTP answer outside 2xx, described for the user: status and the first words of the body. */
export class TransferHttpError extends HostError {
  static override readonly brand: string = 'TransferHttpError';
  constructor(
    readonly status: number,
    readonly bodyText: string,
    message: string,
  ) {
    super(message);
  }
}

/** The first line of an error body, readable: an XML error (S3) is reduced to its text, control characters dropped. */
export function describeErrorBody(body: string): string {
  const text = body
    .replace(/<\?xml[^>]*\?>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/[\x00-\x1f\x7f-\x9f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

function readSome(res: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (c: Buffer) => {
      if (size < ERROR_BODY_BYTES) chunks.push(c);
      size += c.length;
      if (size >= ERROR_BODY_BYTES) res.destroy();
    });
    res.on('close', () => resolve(Buffer.concat(chunks).subarray(0, ERROR_BODY_BYTES).toString('utf8')));
    res.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function statusError(what: string, origin: string, status: number, body: string): TransferHttpError {
  const first = describeErrorBody(body);
  const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
  return new TransferHttpError(status, body, `${what} ${origin} answered HTTP ${status}${redirect}${first ? `: ${first}` : ''}`);
}

function withoutOwnHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k, v]) => !OWN_HEADERS.has(k.toLowerCase()) && !/[\r\n]/.test(v)));
}

/** One piece of a request body: bytes, or a checked file's content streamed from disk. */
export type BodySegment = Buffer | { file: CheckedFile };

export interface StreamUploadOptions {
  url: string;
  method: string;
  headers: Record<string, string>;
  segments: BodySegment[];
  policy: DestinationPolicy;
  signal: AbortSignal;
  /** Bytes of file content sent so far (not the framing). */
  onBytes?: (sent: number) => void;
}

/** Sends a body made of segments, streamed; resolves on 2xx, rejects with TransferHttpError otherwise. */
export async function streamUpload(opts: StreamUploadOptions): Promise<void> {
  const checked = await checkDestination(opts.url, opts.policy);
  if ('refused' in checked) throw new DestinationRefusedError(`upload refused: ${checked.refused}`);
  const url = checked.url;
  // Nothing starts for a file that is no longer the one checked.
  for (const s of opts.segments) {
    if (Buffer.isBuffer(s)) continue;
    const changed = await changedSinceCheck(s.file);
    if (changed) throw new Error(`${s.file.name} ${changed}; choose it again`);
  }
  const length = opts.segments.reduce((n, s) => n + (Buffer.isBuffer(s) ? s.length : s.file.size), 0);
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const fail = (e: Error) => {
      if (!settled) {
        settled = true;
        reject(e);
      }
    };
    const req = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method: opts.method,
        signal: opts.signal,
        lookup: guardedLookup(opts.policy) as never,
        headers: { ...withoutOwnHeaders(opts.headers), 'Content-Length': String(length) },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) {
          res.resume();
          res.on('end', () => {
            if (!settled) {
              settled = true;
              resolve();
            }
          });
          return;
        }
        void readSome(res).then((body) => fail(statusError('the upload endpoint', url.origin, status, body)));
      },
    );
    req.on('error', (e) => {
      if (opts.signal.aborted) fail(new Error('the upload was cancelled'));
      else if (e instanceof DestinationRefusedError) fail(new DestinationRefusedError(`upload refused: ${e.message}`));
      else fail(new Error(`the upload to ${url.origin} failed: ${e.message}`));
    });

    const write = (data: Buffer) =>
      new Promise<void>((done, bad) => {
        req.write(data, (e) => (e ? bad(e) : done()));
      });
    const writeAll = async (): Promise<void> => {
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      let sent = 0;
      for (const segment of opts.segments) {
        if (Buffer.isBuffer(segment)) {
          await write(segment);
          continue;
        }
        const file = segment.file;
        const { handle } = await openRegularFile(file.path);
        try {
          let bytes = 0;
          for (;;) {
            const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
            if (bytesRead === 0) break;
            bytes += bytesRead;
            if (bytes > file.size) throw new Error(`${file.name} grew while it was being uploaded; choose it again`);
            // The write callback fires once the chunk has left, so the one buffer can be refilled.
            await write(chunk.subarray(0, bytesRead));
            sent += bytesRead;
            opts.onBytes?.(sent);
          }
          if (bytes !== file.size) throw new Error(`${file.name} changed while it was being uploaded; choose it again`);
        } finally {
          await handle.close();
        }
      }
      req.end();
    };
    writeAll().catch((e: Error) => {
      req.destroy();
      fail(opts.signal.aborted ? new Error('the upload was cancelled') : e);
    });
  });
}

/** Quotes a name for Content-Disposition (RFC 7578): no CR/LF, quotes and backslashes escaped. */
function dispositionValue(name: string): string {
  return name.replace(/[\r\n]/g, ' ').replace(/["\\]/g, (c) => `\\${c}`);
}

export interface MultipartPart {
  name: string;
  value?: string;
  file?: CheckedFile;
}

/**
 * A multipart/form-data body in the given order (text fields, then the file part, as presigned POST policies
 * require), as segments for `streamUpload`, with its Content-Type.
 */
export function multipartBody(parts: MultipartPart[]): { contentType: string; segments: BodySegment[] } {
  const boundary = `----mcp-host-${randomBytes(12).toString('hex')}`;
  const segments: BodySegment[] = [];
  for (const part of parts) {
    const head = part.file
      ? `--${boundary}\r\nContent-Disposition: form-data; name="${dispositionValue(part.name)}"; filename="${dispositionValue(part.file.name)}"\r\n` +
        `Content-Type: ${part.file.mediaType.replace(/[\r\n]/g, '')}\r\n\r\n`
      : `--${boundary}\r\nContent-Disposition: form-data; name="${dispositionValue(part.name)}"\r\n\r\n`;
    segments.push(Buffer.from(head, 'utf8'));
    if (part.file) segments.push({ file: part.file });
    else segments.push(Buffer.from(part.value ?? '', 'utf8'));
    segments.push(Buffer.from('\r\n'));
  }
  segments.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return { contentType: `multipart/form-data; boundary=${boundary}`, segments };
}

export interface VerifiedDownloadOptions {
  url: string;
  headers?: Record<string, string>;
  /** The final path: never overwritten (the download fails if something appeared there meanwhile). */
  target: string;
  expected: { size?: number; digest?: { algorithm: string; value: string } };
  maxBytes: number;
  /** What sets `maxBytes`, for the refusal ("--max-download"). */
  maxBytesName?: string;
  /** The whole download ends within this many milliseconds (connecting, waiting and receiving). */
  deadlineMs: number;
  policy: DestinationPolicy;
  signal?: AbortSignal;
  onBytes?: (received: number) => void;
}

/** A download that did not finish within its deadline; nothing is left behind. */
export class DownloadTimeoutError extends HostError {
  static override readonly brand: string = 'DownloadTimeoutError';
}

// A download in progress is written to `.NAME.mcp-host-PID-RANDOM.part` beside its target: the process id lets a
// later run tell the leftovers of a run that was killed (its process is gone) from a download still going.
const PART_FILE = /^\..*\.mcp-host-(\d+)-[0-9a-f]{12}\.part$/;

/** The temporary file a download to `target` is written to before it is verified and linked into place. */
export function partPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.mcp-host-${process.pid}-${randomBytes(6).toString('hex')}.part`);
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Deletes the partial downloads a killed run left in `dir` (its process is gone); a download of a running
 * process is left alone. Returns how many were removed.
 */
export async function removeStaleParts(dir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const match = PART_FILE.exec(name);
    if (!match || processAlive(Number(match[1]))) continue;
    const path = join(dir, name);
    try {
      if (!(await lstat(path)).isFile()) continue;
      await unlink(path);
      removed++;
    } catch {
      /* gone meanwhile, or not ours to delete */
    }
  }
  return removed;
}

/** The seconds of a deadline, in words: "6 s", "1.5 s". */
export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** A download whose bytes did not match what the server said; nothing is left behind. */
export class VerificationError extends HostError {
  static override readonly brand: string = 'VerificationError';
}

/**
 * Streams a download into a temporary file beside `target`, hashing as it goes; checks the byte count and
 * the sha-256 digest when the server gave them, and only then links the file into place. Any failure
 * deletes the temporary file. Returns the byte count.
 */
export async function downloadVerified(opts: VerifiedDownloadOptions): Promise<{ bytes: number; sha256: string }> {
  const checked = await checkDestination(opts.url, opts.policy);
  if ('refused' in checked) throw new DestinationRefusedError(`download refused: ${checked.refused}`);
  const url = checked.url;
  const digest = opts.expected.digest;
  if (digest && digest.algorithm.toLowerCase() !== 'sha-256') {
    throw new VerificationError(`the server's digest uses ${digest.algorithm}; only sha-256 can be verified`);
  }
  const limit = Math.min(opts.maxBytes, opts.expected.size ?? Number.POSITIVE_INFINITY);
  const overLimit = (what: string) =>
    new VerificationError(`${what}, over ${formatBytes(opts.maxBytes)} (${opts.maxBytes} bytes, ${opts.maxBytesName ?? 'the limit'})`);
  await removeStaleParts(dirname(opts.target));
  const temp = partPathFor(opts.target);
  const out = createWriteStream(temp, { flags: 'wx' });
  await new Promise<void>((res, rej) => {
    out.once('open', () => res());
    out.once('error', rej);
  });
  const hash = createHash('sha256');
  let received = 0;
  // One signal ends the request for either reason: the caller's cancel, or the deadline.
  const stop = linkAbort(opts.signal);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop.abort();
  }, opts.deadlineMs);
  const deadlineError = () =>
    new DownloadTimeoutError(
      `the download did not finish within ${seconds(opts.deadlineMs)} (${received} bytes arrived` +
        `${opts.expected.size !== undefined ? ` of ${opts.expected.size}` : ', no size stated'}); its deadline is the request timeout` +
        `${opts.expected.size !== undefined ? ' plus a second per MiB of the stated size' : ''}`,
    );
  try {
    await new Promise<void>((resolve, reject) => {
      stop.signal.addEventListener('abort', () => reject(timedOut ? deadlineError() : new Error('the download was cancelled')), { once: true });
      const req = (url.protocol === 'https:' ? https : http).get(
        url,
        {
          signal: stop.signal,
          headers: withoutOwnHeaders(opts.headers ?? {}),
          lookup: guardedLookup(opts.policy) as never,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          if (status < 200 || status >= 300) {
            void readSome(res).then((body) => reject(statusError('the download from', url.origin, status, body)));
            return;
          }
          const declared = Number(res.headers['content-length']);
          if (Number.isFinite(declared) && declared > limit) {
            res.destroy();
            reject(
              new VerificationError(
                opts.expected.size !== undefined && declared > opts.expected.size
                  ? `size mismatch: the download is ${declared} bytes, the server said ${opts.expected.size}`
                  : overLimit(`the file is ${declared} bytes`).message,
              ),
            );
            return;
          }
          res.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (received > limit) {
              res.destroy();
              reject(
                new VerificationError(
                  opts.expected.size !== undefined && received > opts.expected.size
                    ? `size mismatch: more than the ${opts.expected.size} bytes the server said arrived`
                    : overLimit(`more bytes arrived than may be saved for a file of no stated size`).message,
                ),
              );
              return;
            }
            hash.update(chunk);
            opts.onBytes?.(received);
            if (!out.write(chunk)) {
              res.pause();
              out.once('drain', () => res.resume());
            }
          });
          res.on('end', () => resolve());
          res.on('error', reject);
        },
      );
      req.on('error', (e) =>
        reject(
          timedOut
            ? deadlineError()
            : opts.signal?.aborted
              ? new Error('the download was cancelled')
              : e instanceof DestinationRefusedError
                ? new DestinationRefusedError(`download refused: ${e.message}`)
                : e,
        ),
      );
    });
    await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
    const sha256 = digestText(hash.digest());
    if (opts.expected.size !== undefined && received !== opts.expected.size) {
      throw new VerificationError(`size mismatch: ${received} bytes arrived, the server said ${opts.expected.size}`);
    }
    if (digest && digest.value.replace(/=+$/, '') !== sha256) {
      throw new VerificationError(`digest mismatch: the sha-256 of the ${received} bytes that arrived is ${sha256}, the server said ${digest.value}`);
    }
    await linkIntoPlace(temp, opts.target);
    return { bytes: received, sha256 };
  } catch (e) {
    out.destroy();
    throw e;
  } finally {
    clearTimeout(timer);
    stop.dispose();
    await unlink(temp).catch(() => undefined);
  }
}

/** Puts the verified file at `target` without ever replacing a file there (a hard link, else an exclusive copy). */
export async function linkIntoPlace(temp: string, target: string): Promise<void> {
  try {
    await link(temp, target);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new Error(`${basename(target)} appeared in the folder meanwhile; nothing was overwritten`);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw e;
    await copyFile(temp, target, 1 /* COPYFILE_EXCL */);
  }
}
