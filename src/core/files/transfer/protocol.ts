import { isObject } from '../../../shared/json';
// SEP-2631 "File Objects and Transfer" (draft; text of its pull request branch, 2026-06-09 revision c3cf0eba):
// every method, field and capability name of the draft, and the schemas of its answers, in one place.
// The SDK knows none of it: requests go through the client's public custom-request API with the schemas in
// ./schemas (zod, loaded with the connection only), and results that carry the draft's new shapes are shielded
// from the SDK's result schemas (below). A later SDK release that knows SEP-2631 replaces these two files.

export const SEP_2631_REVISION = 'SEP-2631 draft, pull request revision c3cf0eba (2026-06-09)';

export const AUTHORIZE_UPLOAD = 'files/authorizeUpload';
export const AUTHORIZE_DOWNLOAD = 'files/authorizeDownload';

/** The client capability: `capabilities.files`. */
export const FILES_CAPABILITY_KEY = 'files';
export const FILES_CAPABILITY = { upload: true, download: true, transports: ['https'] } as const;

/**
 * The server's `capabilities.files` in a raw initialize (or server/discover) answer, or undefined when the answer
 * is not one of those. The SDK's schema drops capabilities it does not know, so the connection reads it here.
 */
export function filesCapabilityOf(result: unknown): { declared: unknown } | undefined {
  // initialize answers carry serverInfo; server/discover answers (2026-07-28) supportedVersions.
  if (!isObject(result) || !isObject(result.capabilities) || !(isObject(result.serverInfo) || Array.isArray(result.supportedVersions))) return undefined;
  return { declared: result.capabilities[FILES_CAPABILITY_KEY] };
}

/** A discovery answer (as the SDK parsed it, without `files`) with the server's raw `capabilities.files` put back, to be remembered. */
export function withFilesCapability<T extends { capabilities?: unknown }>(discover: T, files: unknown): T {
  if (files === undefined || !isObject(discover.capabilities)) return discover;
  return { ...discover, capabilities: { ...discover.capabilities, [FILES_CAPABILITY_KEY]: files } };
}

/** Whether a server's `capabilities.files` says it takes uploads: declared (an object), and `upload` not false. */
export function declaresUploads(files: unknown): boolean {
  return isObject(files) && files.upload !== false;
}

export type TransferMode = 'inline' | 'upload';
export const TRANSFER_MODES: readonly TransferMode[] = ['inline', 'upload'];

/** `x-mcp-file.transferModes`: the modes this host knows, or a reason the value is unusable. */
export function readTransferModes(value: unknown): TransferMode[] | undefined | string {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((m) => typeof m === 'string')) return 'has a transferModes that is not a list of strings';
  const known = value.filter((m): m is TransferMode => (TRANSFER_MODES as readonly string[]).includes(m));
  if (known.length === 0) return `has a transferModes (${value.join(', ') || 'empty'}) with no mode this host knows (inline, upload)`;
  return [...new Set(known)];
}

export interface FileDigest {
  algorithm: string;
  value: string;
}

/** A file named by a file URI, with optional display and integrity metadata. */
export interface FileValue {
  uri: string;
  name?: string;
  mimeType?: string;
  size?: number;
  digest?: FileDigest;
}

/** How to move the bytes: `upload` (POST multipart or PUT) or `download` (GET). */
export interface TransferDescriptor {
  transport: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  multipart?: { fileField: string; fields?: Record<string, string> };
  expiresAt?: string;
}

/** The answer to files/authorizeDownload, and the parent shape of authorizeUpload's. */
export interface AuthorizedFile {
  file: FileValue;
  download?: TransferDescriptor;
}
export interface AuthorizedUpload extends AuthorizedFile {
  upload: TransferDescriptor;
}

export interface AuthorizeUploadParams {
  name: string;
  mimeType: string;
  size: number;
  digest?: FileDigest;
}

/** `data` of a -32602 refusal, e.g. `{reason: "maxSizeExceeded", maxSize, actualSize}`. */
export interface RefusalData {
  reason?: string;
  maxSize?: number;
  actualSize?: number;
}

/** A descriptor's expiry has passed (with a little slack for clocks and the time the request takes). */
export function isExpired(descriptor: { expiresAt?: string }, now = Date.now(), slackMs = 5_000): boolean {
  if (!descriptor.expiresAt) return false;
  const at = Date.parse(descriptor.expiresAt);
  return Number.isFinite(at) && at <= now + slackMs;
}

// --- Shielding the draft's result shapes from the SDK's schemas -------------------------------------------
// The SDK validates tools/call, prompts/get and resources/read answers against the released ContentBlock and
// ResourceContents unions, so a `{type: "file"}` block or a `{uri, content: {uri}}` resource (alone, or embedded in
// a `{type: "resource"}` block) fails the whole answer. The connection rewrites such items in the raw answer into
// shapes the SDK accepts, carrying the original in `_meta`, and restores them after the SDK has parsed the answer.

const SHIELD_KEY = 'mcp-host/sep-2631';

/** A FileResourceContents: no text or blob, a `content` object instead. */
function isFileResourceContents(item: unknown): boolean {
  return isObject(item) && typeof item.text !== 'string' && typeof item.blob !== 'string' && isObject(item.content);
}

/** A content block the released ContentBlock union refuses: a `file` block, or a resource block embedding a file. */
function isDraftBlock(block: unknown): boolean {
  return isObject(block) && (block.type === 'file' || (block.type === 'resource' && isFileResourceContents(block.resource)));
}

const shieldBlock = (block: unknown) => (isDraftBlock(block) ? { type: 'text', text: '', _meta: { [SHIELD_KEY]: block } } : block);

/** Rewrites draft-only items of a raw tools/call, prompts/get or resources/read result in place. */
export function shieldDraftShapes(result: unknown): void {
  if (!isObject(result)) return;
  if (Array.isArray(result.content)) result.content = result.content.map(shieldBlock);
  if (Array.isArray(result.messages)) {
    for (const message of result.messages) if (isObject(message)) message.content = shieldBlock(message.content);
  }
  if (Array.isArray(result.contents)) {
    result.contents = result.contents.map((item) =>
      isFileResourceContents(item) ? { uri: typeof item.uri === 'string' ? item.uri : '', text: '', _meta: { [SHIELD_KEY]: item } } : item,
    );
  }
}

/** Puts back what `shieldDraftShapes` rewrote (on the SDK's parsed copy). */
export function restoreDraftShapes<T>(result: T): T {
  if (!isObject(result)) return result;
  const r = result as Record<string, unknown>;
  const restore = (item: unknown) => (isObject(item) && isObject(item._meta) && isObject(item._meta[SHIELD_KEY]) ? item._meta[SHIELD_KEY] : item);
  if (Array.isArray(r.content)) r.content = r.content.map(restore);
  if (Array.isArray(r.messages)) for (const message of r.messages) if (isObject(message)) message.content = restore(message.content);
  if (Array.isArray(r.contents)) r.contents = r.contents.map(restore);
  return result;
}
