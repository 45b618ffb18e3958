// SEP-1306 uploads: one multipart/form-data request per file field (one `file` part per file),
// streamed from disk with a known Content-Length. The MCP bearer token goes only to the MCP
// server's own origin; callers decide about other origins before calling.

import { randomBytes } from 'node:crypto';
import { openRegularFile } from '../io/boundedRead';
import http from 'node:http';
import https from 'node:https';
import { changedSinceCheck, type CheckedFile } from '../files/check';
import { refuseInsecureUrl } from '../results/save';

export interface UploadOptions {
  url: string;
  method: 'POST' | 'PUT';
  /** Checked files: one that changed since its check is refused before its bytes leave. */
  files: CheckedFile[];
  /** Sent as `Authorization` only when given; the caller passes it only for the server's own origin. */
  authorization?: string;
  signal: AbortSignal;
  /** Called as bytes of file content leave (not for the multipart framing). */
  onBytes?: (sent: number) => void;
}

/** Quotes a file name for Content-Disposition (RFC 7578): no CR/LF, quotes and backslashes escaped. */
function dispositionName(name: string): string {
  return name.replace(/[\r\n]/g, ' ').replace(/["\\]/g, (c) => `\\${c}`);
}

export function partHeader(boundary: string, file: Pick<CheckedFile, 'name' | 'mediaType'>): string {
  return `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${dispositionName(file.name)}"\r\n`
    + `Content-Type: ${file.mediaType.replace(/[\r\n]/g, '')}\r\n\r\n`;
}

/** Uploads the files; resolves on any 2xx, rejects with a message naming the destination otherwise. */
export async function uploadMultipart(opts: UploadOptions): Promise<void> {
  const url = new URL(opts.url);
  const insecure = refuseInsecureUrl(url);
  if (insecure) throw new Error(`upload refused: ${insecure}`);
  // Nothing starts for a file that is no longer the one checked.
  for (const file of opts.files) {
    const changed = await changedSinceCheck(file);
    if (changed) throw new Error(`${file.name} ${changed}; choose it again`);
  }
  const boundary = `----mcp-host-${randomBytes(12).toString('hex')}`;
  const headers = opts.files.map((f) => Buffer.from(partHeader(boundary, f), 'utf8'));
  const trailer = Buffer.from(`--${boundary}--\r\n`, 'utf8');
  const length = opts.files.reduce((n, f, i) => n + headers[i]!.length + f.size + 2, 0) + trailer.length;

  await new Promise<void>((resolve, reject) => {
    const req = (url.protocol === 'https:' ? https : http).request(url, {
      method: opts.method,
      signal: opts.signal,
      headers: {
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': String(length),
        ...(opts.authorization ? { Authorization: opts.authorization } : {}),
      },
    }, (res) => {
      res.resume();
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) res.on('end', resolve);
      else reject(new Error(`the upload endpoint ${url.origin} answered HTTP ${status}`));
    });
    req.on('error', (e) => reject(opts.signal.aborted ? new Error('the upload was cancelled') : new Error(`the upload to ${url.origin} failed: ${e.message}`)));

    // One reused buffer: each chunk is read only after the previous one has left for the socket,
    // so memory stays at one chunk whatever the file's size (no garbage for the collector either).
    const write = (data: Buffer | string) => new Promise<void>((done, fail) => {
      req.write(data, (e) => (e ? fail(e) : done()));
    });
    const writeAll = async (): Promise<void> => {
      const chunk = Buffer.allocUnsafe(256 * 1024);
      let sent = 0;
      for (let i = 0; i < opts.files.length; i++) {
        const file = opts.files[i]!;
        await write(headers[i]!);
        const { handle } = await openRegularFile(file.path);
        try {
          let bytes = 0;
          for (;;) {
            const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
            if (bytesRead === 0) break;
            bytes += bytesRead;
            if (bytes > file.size) throw new Error(`${file.name} grew while it was being uploaded; choose it again`);
            await write(chunk.subarray(0, bytesRead));
            sent += bytesRead;
            opts.onBytes?.(sent);
          }
          if (bytes !== file.size) throw new Error(`${file.name} changed while it was being uploaded; choose it again`);
        } finally {
          await handle.close();
        }
        await write('\r\n');
      }
      req.end(trailer);
    };
    writeAll().catch((e: Error) => { req.destroy(); reject(e); });
  });
}
