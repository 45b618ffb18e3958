// SEP-2631 for one connection: files/authorizeUpload and files/authorizeDownload sent as custom requests, the
// upload (digest first, then the descriptor honoured exactly, an expired one re-authorized once) and the
// verified download. The MCP session's credentials never go to the data plane: only the descriptor's headers.

import type { ZodType } from 'zod';
import type { CallOptions } from '../../connection/types';
import type { Logger } from '../../log';
import { destinationPolicyFor, type DestinationPolicy } from '../../net/destination';
import type { CheckedFile } from '../check';
import { DEFAULT_MAX_DOWNLOAD_BYTES, downloadDeadlineMs, FILE_OUTPUT_MAX_BYTES, formatBytes, withoutUploads, type InlineLimits } from '../limits';
import { downloadVerified, fileSha256, multipartBody, streamUpload, TransferHttpError } from './http';
import {
  AUTHORIZE_DOWNLOAD,
  AUTHORIZE_UPLOAD,
  declaresUploads,
  isExpired,
  type AuthorizedFile,
  type AuthorizedUpload,
  type AuthorizeUploadParams,
  type FileValue,
  type RefusalData,
  type TransferDescriptor,
} from './protocol';
import { AuthorizedFileSchema, AuthorizedUploadSchema } from './schemas';
import { TransferRefusedError, TransferUnsupportedError } from './errors';

export { TransferRefusedError, TransferUnsupportedError };

/** What the transfer client needs of a connection (a ServerConnection). */
export interface TransferConnection {
  readonly name: string;
  readonly log: Logger;
  /** The MCP server's URL (HTTP) or undefined (a stdio process on this machine). */
  readonly serverUrl: string | undefined;
  request<T>(method: string, params: Record<string, unknown>, schema: ZodType<T>, opts?: CallOptions): Promise<T>;
  /** The server's `capabilities.files` as it sent it (undefined: not declared). */
  readonly serverFilesCapability?: unknown;
  /** The connection's request timeout: a download's deadline starts from it. */
  readonly requestTimeoutMs?: number;
}

/** An authorized upload, ready to send: the user may be shown `destination` before any byte leaves. */
export interface PreparedUpload {
  file: CheckedFile;
  digest: string;
  authorized: AuthorizedUpload;
  /** The origin the bytes go to. */
  destination: string;
  /** Its host (and port), as the user is shown it: "uploaded to <host>". */
  host: string;
  /** The destination is not the MCP server's own origin. */
  foreign: boolean;
}

export interface UploadProgress {
  onBytes?: (sent: number) => void;
  signal?: AbortSignal;
  onDestination?: (host: string) => void;
}

function errorCode(e: unknown): number | undefined {
  const code = (e as { code?: unknown })?.code;
  return typeof code === 'number' ? code : undefined;
}

/** A refusal's numbers in words: "maxSizeExceeded (maxSize 10 MiB, actual size 24 MiB)". */
export function describeRefusalData(data: RefusalData | undefined): string {
  if (!data?.reason) return '';
  const numbers: string[] = [];
  if (typeof data.maxSize === 'number') numbers.push(`maxSize ${formatBytes(data.maxSize)} (${data.maxSize} bytes)`);
  if (typeof data.actualSize === 'number') numbers.push(`actual size ${formatBytes(data.actualSize)} (${data.actualSize} bytes)`);
  return `${data.reason}${numbers.length ? ` (${numbers.join(', ')})` : ''}`;
}

export interface SaveFileOptions {
  eager?: TransferDescriptor;
  /** The most bytes saved when the server states no size (default DEFAULT_MAX_DOWNLOAD_BYTES); a stated size is the limit otherwise. */
  maxBytes?: number;
  /** What sets `maxBytes`, as the user knows it ("--max-download"), for the refusal. */
  maxBytesName?: string;
  /** The deadline's base (default: the connection's request timeout); it grows with the stated size. */
  timeoutMs?: number;
  signal?: AbortSignal;
  onBytes?: (n: number) => void;
}

export class FileTransfers {
  private policyPromise?: Promise<DestinationPolicy>;
  /** false once the server answered -32601 to authorizeUpload: later files are refused without asking again. */
  private uploadSupported: boolean | undefined;

  constructor(
    private readonly conn: TransferConnection,
    readonly enabled: boolean,
  ) {}

  private policy(): Promise<DestinationPolicy> {
    this.policyPromise ??= destinationPolicyFor(this.conn.serverUrl);
    return this.policyPromise;
  }

  private serverOrigin(): string | undefined {
    return this.conn.serverUrl ? new URL(this.conn.serverUrl).origin : undefined;
  }

  private async call<T>(method: string, params: Record<string, unknown>, schema: ZodType<T>, signal?: AbortSignal): Promise<T> {
    try {
      return await this.conn.request(method, params, schema, signal ? { signal } : {});
    } catch (e) {
      const code = errorCode(e);
      if (code === -32601) throw new TransferUnsupportedError(`${this.conn.name} does not support ${method} (-32601)`);
      const data = (e as { data?: unknown }).data as RefusalData | undefined;
      const reason = describeRefusalData(data);
      const message = (e as Error).message.replace(/^.*?failed: /, '');
      throw new TransferRefusedError(
        `${this.conn.name} refused ${method}${code !== undefined ? ` (${code})` : ''}: ${message}${reason && !message.includes(data!.reason!) ? `; ${reason}` : ''}`,
        code,
        data,
      );
    }
  }

  /**
   * Why this server gets no uploads (transfer turned off, no `files` capability declared, or -32601 already
   * answered), or undefined when it takes them. Known before any byte of a file is read.
   */
  get uploadRefusal(): string | undefined {
    if (!this.enabled) return 'out-of-band file transfer is turned off';
    if (!declaresUploads(this.conn.serverFilesCapability)) return `${this.conn.name} did not declare the files capability (SEP-2631), so it takes no uploads`;
    if (this.uploadSupported === false) return `${this.conn.name} does not support ${AUTHORIZE_UPLOAD} (-32601)`;
    return undefined;
  }

  /** The limits for files sent to this server: without upload when it takes none, so a check refuses from stat. */
  limitsFor(limits: InlineLimits): InlineLimits {
    const refusal = limits.upload ? this.uploadRefusal : undefined;
    return refusal ? withoutUploads(limits, refusal) : limits;
  }

  private async authorizeUpload(file: CheckedFile, digest: string, signal?: AbortSignal): Promise<AuthorizedUpload> {
    const refusal = this.uploadRefusal;
    if (refusal) throw new TransferUnsupportedError(refusal);
    const params: AuthorizeUploadParams = { name: file.name, mimeType: file.mediaType, size: file.size, digest: { algorithm: 'sha-256', value: digest } };
    try {
      const answer = await this.call(AUTHORIZE_UPLOAD, { ...params }, AuthorizedUploadSchema, signal);
      this.uploadSupported = true;
      return answer;
    } catch (e) {
      if (e instanceof TransferUnsupportedError) this.uploadSupported = false;
      throw e;
    }
  }

  /** Whether the server is known not to support uploads (it answered -32601). */
  get uploadUnsupported(): boolean {
    return this.uploadSupported === false;
  }

  /**
   * Digests the file (one streaming pass, reported by `onDigestBytes`, stopped by `signal`) and asks the server
   * where to upload it. Nothing of the file's content leaves yet; the caller may show `destination` and ask
   * before `sendUpload`. A server that takes no uploads is refused before the file is read.
   */
  async prepareUpload(file: CheckedFile, opts: { signal?: AbortSignal; onDigestBytes?: (read: number) => void } = {}): Promise<PreparedUpload> {
    // Refused before the file is read: digesting a large file for a server that cannot take it wastes minutes.
    const refusal = this.uploadRefusal;
    if (refusal) throw new TransferUnsupportedError(refusal);
    const digest = await fileSha256(file, opts.signal, opts.onDigestBytes);
    const authorized = await this.authorizeUpload(file, digest, opts.signal);
    return this.prepared(file, digest, authorized);
  }

  private prepared(file: CheckedFile, digest: string, authorized: AuthorizedUpload): PreparedUpload {
    let destination: string;
    try {
      destination = new URL(authorized.upload.url).origin;
    } catch {
      destination = 'an invalid upload address';
    }
    return { file, digest, authorized, destination, host: hostOf(authorized.upload.url), foreign: destination !== this.serverOrigin() };
  }

  /**
   * An authorized upload the user did not confirm: nothing of the file was sent. The draft has no way to
   * withdraw an authorization, so it is left unused until its descriptor expires; the log says so.
   */
  abandonUpload(prepared: PreparedUpload): void {
    const expires = prepared.authorized.upload.expiresAt;
    this.conn.log.info(
      `the upload of ${prepared.file.name} to ${prepared.host} was not confirmed: nothing was sent; ` +
        `its authorization (${prepared.authorized.file.uri}) is left unused${expires ? ` and expires at ${expires}` : ''}`,
    );
  }

  /** A re-authorization may not move the bytes to an origin the user was not shown. */
  private reauthorized(before: PreparedUpload, authorized: AuthorizedUpload): PreparedUpload {
    const next = this.prepared(before.file, before.digest, authorized);
    if (next.destination !== before.destination) {
      throw new Error(
        `${this.conn.name} authorized the upload of ${before.file.name} again, but to ${next.host} instead of ${before.host}, ` +
          'the host that was confirmed; nothing was sent',
      );
    }
    return next;
  }

  /**
   * Sends the file as the descriptor says and returns its file URI. An expired descriptor (by its expiresAt,
   * or a 403 from the store after that time) is authorized again, once.
   */
  async sendUpload(prepared: PreparedUpload, opts: UploadProgress = {}): Promise<string> {
    let current = prepared;
    for (let attempt = 1; ; attempt++) {
      const descriptor = current.authorized.upload;
      if (isExpired(descriptor) && attempt === 1) {
        this.conn.log.info(`the upload descriptor for ${current.file.name} expired at ${descriptor.expiresAt}; authorizing again`);
        current = this.reauthorized(current, await this.authorizeUpload(current.file, current.digest, opts.signal));
        attempt++;
      }
      try {
        opts.onDestination?.(current.host);
        await this.send(current.file, current.authorized.upload, opts);
        break;
      } catch (e) {
        const expiredNow =
          e instanceof TransferHttpError && (e.status === 400 || e.status === 403) && (isExpired(descriptor, Date.now(), 0) || /expired/i.test(e.bodyText));
        if (!expiredNow || attempt > 1) throw e;
        this.conn.log.info(`the store refused the upload of ${current.file.name} as expired; authorizing again`);
        current = this.reauthorized(current, await this.authorizeUpload(current.file, current.digest, opts.signal));
      }
    }
    const uri = current.authorized.file.uri;
    this.conn.log.info(`uploaded ${current.file.name} (${formatBytes(current.file.size)}) to ${current.destination}; sending its file URI`);
    return uri;
  }

  private async send(file: CheckedFile, descriptor: TransferDescriptor, opts: UploadProgress): Promise<void> {
    if (descriptor.transport !== 'https') throw new Error(`the upload descriptor asks for transport "${descriptor.transport}"; only "https" is supported`);
    const method = descriptor.method.toUpperCase();
    if (method !== 'POST' && method !== 'PUT') throw new Error(`the upload descriptor asks for HTTP ${method}; only POST and PUT are used`);
    const headers = { ...(descriptor.headers ?? {}) };
    let segments;
    if (descriptor.multipart) {
      const fields = Object.entries(descriptor.multipart.fields ?? {}).map(([name, value]) => ({ name, value }));
      const body = multipartBody([...fields, { name: descriptor.multipart.fileField, file }]);
      // The descriptor's Content-Type names multipart/form-data; the boundary is ours to add.
      for (const k of Object.keys(headers)) if (k.toLowerCase() === 'content-type') delete headers[k];
      headers['Content-Type'] = body.contentType;
      segments = body.segments;
    } else {
      segments = [{ file }];
      if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['Content-Type'] = file.mediaType;
    }
    await streamUpload({
      url: descriptor.url,
      method,
      headers,
      segments,
      policy: await this.policy(),
      signal: opts.signal ?? new AbortController().signal,
      ...(opts.onBytes ? { onBytes: opts.onBytes } : {}),
    });
  }

  /** Authorizes and uploads a checked file; returns the file URI to send in its place. */
  async uploadFile(file: CheckedFile, opts: UploadProgress = {}): Promise<string> {
    return this.sendUpload(await this.prepareUpload(file, opts), opts);
  }

  async authorizeDownload(uri: string, signal?: AbortSignal): Promise<AuthorizedFile> {
    if (!this.enabled) throw new TransferUnsupportedError('out-of-band file transfer is turned off');
    return this.call(AUTHORIZE_DOWNLOAD, { uri }, AuthorizedFileSchema, signal);
  }

  /**
   * Downloads a file output to `target` (a path that does not exist yet), verified against the size and
   * digest the server gave (the result's, or the authorization's when it says more). Uses an eager descriptor
   * while it has not expired, else files/authorizeDownload. Nothing is left behind on failure.
   */
  async saveFile(value: FileValue, target: string, opts: SaveFileOptions = {}): Promise<{ bytes: number }> {
    let descriptor = opts.eager && !isExpired(opts.eager) ? opts.eager : undefined;
    let file = value;
    if (!descriptor) {
      const authorized = await this.authorizeDownload(value.uri, opts.signal);
      if (!authorized.download) throw new Error(`${this.conn.name} authorized ${value.uri} but gave no download descriptor`);
      descriptor = authorized.download;
      file = { ...authorized.file, ...pick(value) };
    }
    if (descriptor.transport !== 'https' || descriptor.method.toUpperCase() !== 'GET') {
      throw new Error(`the download descriptor asks for ${descriptor.transport} ${descriptor.method}; only https GET is supported`);
    }
    const expected = { ...(file.size !== undefined ? { size: file.size } : {}), ...(file.digest ? { digest: file.digest } : {}) };
    const maxBytes = file.size !== undefined ? FILE_OUTPUT_MAX_BYTES : (opts.maxBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES);
    const result = await downloadVerified({
      url: descriptor.url,
      ...(descriptor.headers ? { headers: descriptor.headers } : {}),
      target,
      expected,
      maxBytes,
      maxBytesName: file.size !== undefined ? 'the largest file output saved' : (opts.maxBytesName ?? 'the download limit for a file of no stated size'),
      deadlineMs: downloadDeadlineMs(opts.timeoutMs ?? this.conn.requestTimeoutMs, file.size),
      policy: await this.policy(),
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.onBytes ? { onBytes: opts.onBytes } : {}),
    });
    this.conn.log.info(`saved ${value.name ?? value.uri} (${formatBytes(result.bytes)}${file.digest ? ', sha-256 verified' : ', no digest given'})`);
    return { bytes: result.bytes };
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid address';
  }
}

/** The size and digest the result itself stated: they must hold whatever the authorization says. */
function pick(value: FileValue): Partial<FileValue> {
  return { ...(value.size !== undefined ? { size: value.size } : {}), ...(value.digest ? { digest: value.digest } : {}) };
}
