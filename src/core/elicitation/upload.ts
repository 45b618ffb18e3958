// SEP-1306 uploads: one multipart/form-data request per file field (one `file` part per file), streamed from
// disk by the shared data plane (files/transfer/http), under the shared destination rules (net/destination).
// The MCP bearer token goes only to the MCP server's own origin; callers decide about other origins before calling.

import type { CheckedFile } from '../files/check';
import { multipartBody, streamUpload } from '../files/transfer/http';
import { destinationPolicyFor, type DestinationPolicy } from '../net/destination';

export interface UploadOptions {
  url: string;
  method: 'POST' | 'PUT';
  /** Checked files: one that changed since its check is refused before its bytes leave. */
  files: CheckedFile[];
  /** Sent as `Authorization` only when given; the caller passes it only for the server's own origin. */
  authorization?: string;
  /** Which addresses the server may point at; defaults to a local server's (loopback). */
  policy?: DestinationPolicy;
  signal: AbortSignal;
  /** Called as bytes of file content leave (not for the multipart framing). */
  onBytes?: (sent: number) => void;
}

/** Uploads the files; resolves on any 2xx, rejects with a message naming the destination otherwise. */
export async function uploadMultipart(opts: UploadOptions): Promise<void> {
  const body = multipartBody(opts.files.map((file) => ({ name: 'file', file })));
  await streamUpload({
    url: opts.url,
    method: opts.method,
    segments: body.segments,
    signal: opts.signal,
    policy: opts.policy ?? (await destinationPolicyFor(undefined)),
    headers: { 'Content-Type': body.contentType, ...(opts.authorization ? { Authorization: opts.authorization } : {}) },
    ...(opts.onBytes ? { onBytes: opts.onBytes } : {}),
  });
}
