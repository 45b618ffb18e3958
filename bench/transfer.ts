// SEP-2631 out-of-band transfer benchmark, each number against a baseline measured in the same run, to the same
// object store (s3rver on 127.0.0.1) with the same descriptors:
// 1. uploading 64 MiB and 512 MiB files through the host (check, sha-256, files/authorizeUpload, streamed
//    multipart POST) vs a bare streaming multipart `fetch` of the same file (goal <= 1.10);
// 2. saving a 128 MiB file output through the host (files/authorizeDownload, download to a temporary file,
//    size and sha-256 verified, linked into place) vs a bare streaming `fetch` to a file plus sha-256 (goal <= 1.10);
// 3. the host's peak RSS growth during the 512 MiB upload, in a fresh child process (goal < 64 MiB).
//
//   npx tsx bench/transfer.ts

import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { FileSlot } from '../src/core/files';
import { checkFile, inlineLimitsFor, Logger, ServerConnection } from './lib/shipped';
import { fixturePath, startObjectStore } from '../test/fixtures/servers';
import { median, reportGoal } from './lib/goals';

const MiB = 1024 * 1024;
const UPLOAD_SIZES = [64, 512];
const DOWNLOAD_MIB = 128;
const TIME_GOAL = 1.1;
const RSS_GOAL_MIB = 64;

const slot: FileSlot = { path: ['doc'], label: 'doc', multiple: false, origin: 'x-mcp-file', required: true, transferModes: ['upload'] };
const limits = inlineLimitsFor('stdio', { transfer: {} });

async function writeFile(path: string, size: number): Promise<void> {
  const block = randomBytes(MiB);
  const handle = await open(path, 'w');
  try {
    for (let at = 0, i = 0; at < size; at += MiB, i++) {
      block.writeUInt32BE(i, 0);
      await handle.write(block.subarray(0, Math.min(MiB, size - at)));
    }
  } finally {
    await handle.close();
  }
}

async function connect(storeUrl: string): Promise<ServerConnection> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const conn = new ServerConnection(
    {
      name: 'transfer',
      transport: 'stdio',
      command: process.execPath,
      args: ['--import', 'tsx', fixturePath('transfer-server.ts'), '--store', storeUrl],
      env,
      cwd: join(__dirname, '..'),
    },
    { log: new Logger(() => undefined, 'error'), capabilities: { files: true }, requestTimeoutMs: 600_000 },
  );
  await conn.start();
  return conn;
}

async function hostUpload(conn: ServerConnection, path: string): Promise<string> {
  const check = await checkFile(path, slot, limits);
  if (!check.ok) throw new Error(check.reason);
  return conn.transfers.uploadFile(check.file);
}

const Descriptor = z.looseObject({
  upload: z.looseObject({ url: z.string(), multipart: z.looseObject({ fileField: z.string(), fields: z.record(z.string(), z.string()) }) }),
});

/** The baseline: the same kind of descriptor (asked for untimed), and a bare streaming multipart fetch. */
async function bareUpload(conn: ServerConnection, path: string, size: number): Promise<void> {
  const d = (await conn.request('files/authorizeUpload', { name: 'bench.bin', mimeType: 'application/octet-stream', size }, Descriptor)).upload;
  return bareMultipart(d.url, d.multipart.fields, d.multipart.fileField, path);
}

async function bareMultipart(url: string, fields: Record<string, string>, fileField: string, path: string): Promise<void> {
  const boundary = `bench${randomBytes(8).toString('hex')}`;
  let head = '';
  for (const [k, v] of Object.entries(fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  async function* body() {
    yield Buffer.from(head);
    yield* createReadStream(path, { highWaterMark: 256 * 1024 });
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    body: Readable.toWeb(Readable.from(body())) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  if (!response.ok) throw new Error(`bare upload: HTTP ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
}

const FileOut = z.looseObject({ file: z.looseObject({ uri: z.string() }), download: z.looseObject({ url: z.string() }) });

async function bareDownload(conn: ServerConnection, uri: string, target: string): Promise<void> {
  const { download } = await conn.request('files/authorizeDownload', { uri }, FileOut);
  const response = await fetch(download.url);
  const hash = createHash('sha256');
  const out = createWriteStream(target);
  await pipeline(
    Readable.fromWeb(response.body as never),
    async function* (source) {
      for await (const c of source) {
        hash.update(c as Buffer);
        yield c;
      }
    },
    out,
  );
  hash.digest();
}

/** Child: the host uploads one file; prints the peak RSS growth over the connected, idle process. */
async function rssChild(storeUrl: string, path: string): Promise<void> {
  const conn = await connect(storeUrl);
  try {
    const warm = join(tmpdir(), `mcp-host-bench-warm-${process.pid}.bin`);
    await writeFile(warm, MiB);
    await hostUpload(conn, warm);
    await unlink(warm);
    (globalThis as { gc?: () => void }).gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    await hostUpload(conn, path);
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    process.stdout.write(JSON.stringify({ growth: peak - before }));
  } finally {
    await conn.stop();
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === '--rss-child') return rssChild(process.argv[3]!, process.argv[4]!);
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-bench-transfer-'));
  const store = await startObjectStore(join(dir, 'store.log'));
  const conn = await connect(store.url);
  console.log(
    `machine: ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  try {
    for (const mib of UPLOAD_SIZES) {
      const path = join(dir, `upload-${mib}.bin`);
      await writeFile(path, mib * MiB);
      const runs = mib <= 64 ? 5 : 2;
      const host: number[] = [];
      const bare: number[] = [];
      for (let i = 0; i < runs + 1; i++) {
        // Interleaved, alternating who goes first, so both see the same load and page cache.
        const sides: Array<[number[], () => Promise<unknown>]> = [
          [host, () => hostUpload(conn, path)],
          [bare, () => bareUpload(conn, path, mib * MiB)],
        ];
        if (i % 2) sides.reverse();
        for (const [out, fn] of sides) {
          const t0 = performance.now();
          await fn();
          if (i > 0) out.push(performance.now() - t0);
        }
      }
      const ratio = median(host) / median(bare);
      reportGoal({
        name: `upload ${mib} MiB, host vs a bare streaming fetch`,
        value: ratio,
        goal: TIME_GOAL,
        unit: 'x',
        detail: `${median(host).toFixed(0)} ms (${(mib / (median(host) / 1000)).toFixed(0)} MiB/s) vs ${median(bare).toFixed(0)} ms`,
      });
      if (mib === 512) {
        const r = spawnSync(process.execPath, [...process.execArgv, '--expose-gc', __filename, '--rss-child', store.url, path], { encoding: 'utf8' });
        if (r.status !== 0) throw new Error(`rss child failed: ${r.stderr}`);
        const growth = (JSON.parse(r.stdout) as { growth: number }).growth / MiB;
        reportGoal({ name: `peak RSS growth while the host uploads ${mib} MiB`, value: growth, goal: RSS_GOAL_MIB, unit: 'MiB', strict: true });
      }
      rmSync(path);
    }

    const made = await conn.callTool('make_file', { size: DOWNLOAD_MIB * MiB, name: 'bench-out.bin' });
    const file = (made.structuredContent as { report: { uri: string; size: number; digest: { algorithm: string; value: string } } }).report;
    const host: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < 6; i++) {
      const sides: Array<[number[], (t: string) => Promise<unknown>]> = [
        [host, (t) => conn.transfers.saveFile(file, t, { maxBytes: 1024 * MiB })],
        [bare, (t) => bareDownload(conn, file.uri, t)],
      ];
      if (i % 2) sides.reverse();
      for (const [out, fn] of sides) {
        const target = join(dir, `download-${i}-${out === host ? 'host' : 'bare'}.bin`);
        const t0 = performance.now();
        await fn(target);
        if (i > 0) out.push(performance.now() - t0);
        rmSync(target);
      }
    }
    const ratio = median(host) / median(bare);
    reportGoal({
      name: `save ${DOWNLOAD_MIB} MiB verified, host vs a bare fetch + sha-256`,
      value: ratio,
      goal: TIME_GOAL,
      unit: 'x',
      detail: `${median(host).toFixed(0)} vs ${median(bare).toFixed(0)} ms`,
    });
  } finally {
    await conn.stop();
    await store.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
