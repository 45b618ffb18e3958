// SEP-2631 out-of-band transfer against a real object store (s3rver) and a real MCP server of each SDK era
// (transfer-server.ts): uploads byte-identical, modes honoured, refusals named, downloads verified, nothing of
// the MCP session's credentials at the store. The CLI runs in-process (`run`); the core is driven directly
// where a test needs the HTTP transport with an Authorization header or a cancel.
import { strict as assert } from 'node:assert';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { ServerConnection } from '../../src/core/connection';
import { CallCancelledError } from '../../src/core/errors';
import { checkFile, findFileSlots, inlineLimitsFor } from '../../src/core/files';
import { planTransfer } from '../../src/core/files/transfer/mode';
import { restoreDraftShapes, shieldDraftShapes } from '../../src/core/files/transfer/protocol';
import { addressKind, checkDestination, destinationPolicyFor } from '../../src/core/net/destination';
import { Logger } from '../../src/core/log';
import { toResultView } from '../../src/core/results';
import { authorizeUploads, encodeFileSlots } from '../../src/core/run';
import { run } from '../../src/cli/main';
import { runCli } from '../fixtures/cli';
import { InMemoryEraCache } from '../../src/core/connection/eraCache';
import { httpServer, startObjectStore, startTransferHttp, stdioFixture, fixtureArgv } from '../fixtures/servers';

const MiB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'mcp-host-transfer-'));
const storeLog = join(dir, 'store.log');
let store: { url: string; stop(): Promise<void> };

/** A file of `size` bytes (a random MiB repeated, each copy stamped with its index), and its sha-256. */
async function makeFile(name: string, size: number): Promise<{ path: string; sha256: string }> {
  const path = join(dir, name);
  const block = randomBytes(Math.min(size, MiB));
  const hash = createHash('sha256');
  const handle = await open(path, 'w');
  try {
    for (let at = 0, i = 0; at < size; at += block.length, i++) {
      block.writeUInt32BE(i, 0);
      const piece = block.subarray(0, Math.min(block.length, size - at));
      hash.update(piece);
      await handle.write(piece);
    }
  } finally {
    await handle.close();
  }
  return { path, sha256: hash.digest('base64url') };
}

function storeRequests(): Array<{ method: string; path: string; authorization: string | null; status: number }> {
  try {
    return readFileSync(storeLog, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}

/** Bytes this process has read through read(2) and the like (/proc/self/io rchar): files, pipes and sockets. */
function bytesReadByThisProcess(): number {
  return Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? 0);
}

const cli = (argv: string[], terminal?: { stdin: NodeJS.ReadableStream }) => runCli(argv, {}, undefined, terminal);

const server = (...args: string[]) => ['--', process.execPath, ...fixtureArgv('transfer-server.ts'), '--store', store.url, ...args];

before(async () => {
  store = await startObjectStore(storeLog);
});
after(async () => {
  await store?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('mcp-host call with SEP-2631 file slots', () => {
  test('a 200 MiB file for an ["upload"] slot arrives byte-identical, uploaded without the session\'s credentials', async () => {
    const file = await makeFile('dataset.bin', 200 * MiB);
    const before = storeRequests().length;
    const r = await cli(['call', 'inspect_upload', '--file', `doc=${file.path}`, ...server()]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out), { via: 'upload', size: 200 * MiB, sha256: file.sha256, mimeType: 'application/octet-stream' });
    // Where the bytes go is said before they leave (authorized first), and again on the progress line.
    const host = new URL(store.url).host;
    const said = r.err.indexOf(`doc: dataset.bin (200 MiB) uploaded to ${host}\n`);
    assert.ok(said >= 0, r.err);
    assert.ok(r.err.indexOf(`uploading dataset.bin to ${host}: 200 MiB of 200 MiB (100%)`) > said, r.err);
    const posts = storeRequests()
      .slice(before)
      .filter((q) => q.method === 'POST');
    assert.equal(posts.length, 1);
    assert.equal(posts[0]!.authorization, null);
  });

  test('["inline"] is never uploaded, even from a host that could; a small file under no transferModes goes inline too (2025 era)', async () => {
    const file = await makeFile('small.bin', 100 * 1024);
    for (const [tool, era] of [
      ['inspect_inline', '2026'],
      ['inspect_any', '2025'],
    ] as const) {
      const r = await cli(['call', tool, '--file', `doc=${file.path}`, ...server('--era', era)]);
      assert.equal(r.code, 0, r.err);
      assert.equal(JSON.parse(r.out).via, 'inline');
      assert.equal(JSON.parse(r.out).sha256, file.sha256);
    }
    const stats = await cli(['call', 'stats', ...server()]);
    assert.equal(JSON.parse(stats.out)['files/authorizeUpload'], undefined);
  });

  test('with no transferModes a file over the inline size is uploaded (both eras); --inline-max moves the line', async () => {
    const file = await makeFile('eight.bin', 8 * MiB);
    for (const era of ['2025', '2026']) {
      const r = await cli(['call', 'inspect_any', '--file', `doc=${file.path}`, ...server('--era', era)]);
      assert.equal(r.code, 0, r.err);
      assert.deepEqual(JSON.parse(r.out), { via: 'upload', size: 8 * MiB, sha256: file.sha256, mimeType: 'application/octet-stream' });
    }
    const small = await makeFile('two.bin', 2 * MiB);
    const r = await cli(['call', 'inspect_any', '--inline-max', String(MiB), '--file', `doc=${small.path}`, ...server()]);
    assert.equal(JSON.parse(r.out).via, 'upload');
  });

  test('a server without SEP-2631: a file over the inline ceiling is refused from stat naming the limit and the missing capability; an ["upload"] slot too', async () => {
    const big = await makeFile('nine.bin', 9 * MiB);
    const r = await cli(['call', 'inspect_any', '--file', `doc=${big.path}`, ...server('--no-transfer')]);
    assert.equal(r.code, 1);
    assert.match(
      r.err,
      /doc: nine\.bin is 9 MiB \(9,437,184 bytes\); at most 7 MiB \(7,340,032 bytes\) can be sent inline to a stdio server \(.*\), and node did not declare the files capability \(SEP-2631\), so it takes no uploads/,
    );
    const small = await makeFile('tiny.txt', 10);
    const u = await cli(['call', 'inspect_upload', '--file', `doc=${small.path}`, ...server('--no-transfer', '--era', '2025')]);
    assert.equal(u.code, 1);
    assert.match(
      u.err,
      /doc: tiny\.txt cannot be sent: this tool takes this file only by out-of-band upload \(SEP-2631 transferModes \["upload"\]\), and node did not declare the files capability/,
    );
    const off = await cli(['call', 'inspect_upload', '--no-file-transfer', '--file', `doc=${small.path}`, ...server()]);
    assert.equal(off.code, 1);
    assert.match(off.err, /doc: tiny\.txt cannot be sent: this tool takes this file only by out-of-band upload .* turned off/);
  });

  test('a 64 GiB sparse file for a server that implements the methods but declared no files capability: refused from stat at once, nothing read or asked', async () => {
    const sparse = join(dir, 'sparse.bin');
    writeFileSync(sparse, '');
    truncateSync(sparse, 64 * 1024 * MiB);
    for (const [tool, wording] of [
      [
        'inspect_any',
        /doc: sparse\.bin is 64 GiB \(68,719,476,736 bytes\); at most 7 MiB \(7,340,032 bytes\) can be sent inline to a stdio server \(.*\), and node did not declare the files capability \(SEP-2631\), so it takes no uploads/,
      ],
      [
        'inspect_upload',
        /doc: sparse\.bin cannot be sent: this tool takes this file only by out-of-band upload .*, and node did not declare the files capability/,
      ],
    ] as const) {
      const readBefore = bytesReadByThisProcess();
      const started = Date.now();
      const r = await cli(['call', tool, '--file', `doc=${sparse}`, ...server('--no-files-capability')]);
      const ms = Date.now() - started;
      assert.equal(r.code, 1, r.err);
      assert.match(r.err, wording);
      // Digesting it would read 64 GiB (about 30 s on these machines); refused from stat, the run reads only the
      // server's messages and its own modules.
      assert.ok(bytesReadByThisProcess() - readBefore < 256 * MiB, `${bytesReadByThisProcess() - readBefore} bytes read`);
      assert.ok(ms < 20_000, `took ${ms} ms`);
    }
    const stats = await cli(['call', 'stats', ...server('--no-files-capability')]);
    assert.equal(JSON.parse(stats.out)['files/authorizeUpload'], undefined);
  });

  test("a server that takes uploads: a sparse file over the tool's maxSize is refused from stat; one within is digested with progress, and an interrupt stops the digest", async () => {
    const sparse = join(dir, 'sparse-capped.bin');
    writeFileSync(sparse, '');
    truncateSync(sparse, 2 * 1024 * MiB);
    const started = Date.now();
    const over = await cli(['call', 'inspect_capped', '--file', `doc=${sparse}`, ...server()]);
    assert.equal(over.code, 1, over.err);
    assert.match(over.err, /doc: sparse-capped\.bin is 2 GiB \(2,147,483,648 bytes\); this tool accepts at most 1 GiB \(1,073,741,824 bytes\)/);
    assert.ok(Date.now() - started < 20_000);

    // Within what the server accepts, the digest runs with a progress line; the run's interrupt (Ctrl+C) stops it.
    const interrupt = new AbortController();
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (d: Buffer) => {
      err += d;
      if (/digesting sparse-capped\.bin \(sha-256\): /.test(err)) interrupt.abort();
    });
    const stdout = new PassThrough();
    stdout.resume();
    const code = await run(['call', 'inspect_upload', '--file', `doc=${sparse}`, ...server()], {
      stdout,
      stderr,
      env: process.env,
      cwd: process.cwd(),
      interactive: false,
      interrupt: interrupt.signal,
    });
    assert.equal(interrupt.signal.aborted, true, err);
    assert.notEqual(code, 0, err);
    assert.match(err, /authorizing the upload of sparse-capped\.bin was cancelled/);
    const stats = await cli(['call', 'stats', ...server()]);
    assert.equal(JSON.parse(stats.out)['files/authorizeUpload'], undefined);
  });

  test('on a terminal the upload host is asked about first: no sends nothing and leaves the authorization unused, yes sends', async () => {
    const file = await makeFile('asked-first.bin', 2 * MiB);
    const host = new URL(store.url).host;
    const before = storeRequests().length;
    const no = await cli(['call', 'inspect_upload', '--verbose', '--file', `doc=${file.path}`, ...server()], { stdin: Readable.from(['n\n']) });
    assert.equal(no.code, 1, no.err);
    assert.match(no.err, new RegExp(`doc: asked-first\\.bin \\(2 MiB\\) uploaded to ${host.replace('.', '\\.')}\n`));
    assert.match(no.err, /Upload and call\? \[y\]es, \[n\]o/);
    assert.match(
      no.err,
      /the upload of asked-first\.bin to .* was not confirmed: nothing was sent; its authorization \(mcp-file:.*\) is left unused and expires at /,
    );
    assert.match(no.err, /not sent: the uploads were not confirmed/);
    assert.equal(storeRequests().length, before, 'no byte reached the store');
    const yes = await cli(['call', 'inspect_upload', '--file', `doc=${file.path}`, ...server()], { stdin: Readable.from(['maybe\n', 'y\n']) });
    assert.equal(yes.code, 0, yes.err);
    assert.equal(JSON.parse(yes.out).sha256, file.sha256);
    assert.equal((yes.err.match(/Upload and call\?/g) ?? []).length, 2, 'asked again after an answer that is neither');
  });

  test('an expired descriptor is authorized again, once', async () => {
    const file = await makeFile('late.bin', 300 * 1024);
    const r = await cli(['call', 'inspect_upload', '--verbose', '--file', `doc=${file.path}`, ...server('--expire-first')]);
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).sha256, file.sha256);
    assert.equal((r.err.match(/upload descriptor for late\.bin expired at .*; authorizing again/g) ?? []).length, 1);
  });

  test('a descriptor pointing at a link-local or private address is refused before any byte leaves', async () => {
    const file = await makeFile('secret.bin', 1000);
    for (const url of ['https://169.254.169.254/latest/upload', 'https://10.1.2.3/upload']) {
      const before = storeRequests().length;
      const r = await cli(['call', 'inspect_upload', '--file', `doc=${file.path}`, ...server('--upload-url', url)]);
      assert.equal(r.code, 5, r.err);
      assert.match(r.err, /upload refused: .*(link-local|private network) address, and the MCP server \(a local \(stdio\) server\) is not on one/);
      assert.equal(storeRequests().length, before);
    }
  });

  test('the store refusing the upload is named with its status and its message; a server refusal shows its numbers', async () => {
    const file = await makeFile('nobucket.bin', 1000);
    const r = await cli(['call', 'inspect_upload', '--file', `doc=${file.path}`, ...server('--upload-url', `${store.url}/no-such-bucket`)]);
    assert.equal(r.code, 5);
    assert.match(r.err, /the upload endpoint http:\/\/127\.0\.0\.1:\d+ answered HTTP 404: NoSuchBucket/);
    const big = await makeFile('toolarge.bin', 9 * MiB);
    const m = await cli(['call', 'inspect_upload', '--file', `doc=${big.path}`, ...server('--max-upload', String(8 * MiB))]);
    assert.equal(m.code, 1);
    assert.match(
      m.err,
      /refused files\/authorizeUpload \(-32602\): .*maxSizeExceeded \(maxSize 8 MiB \(8388608 bytes\), actual size 9 MiB \(9437184 bytes\)\)/,
    );
  });

  test('an elicitation field that takes files only by upload gets a file URI, and the server reads the bytes back', async () => {
    const file = await makeFile('asked.bin', 3 * MiB);
    const answers = join(dir, 'answers.json');
    writeFileSync(answers, JSON.stringify({ action: 'accept', files: { doc: file.path } }));
    const r = await cli(['call', 'ask_upload', '--elicit', `@${answers}`, ...server()]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out), { answer: 'accept', via: 'upload', size: 3 * MiB, sha256: file.sha256, mimeType: 'application/octet-stream' });
  });

  test('an elicitation answer with a 64 GiB sparse file for a server that declared no files capability is refused at once, unread', async () => {
    const sparse = join(dir, 'asked-sparse.bin');
    writeFileSync(sparse, '');
    truncateSync(sparse, 64 * 1024 * MiB);
    const answers = join(dir, 'answers-sparse.json');
    writeFileSync(answers, JSON.stringify({ action: 'accept', files: { doc: sparse } }));
    const readBefore = bytesReadByThisProcess();
    const started = Date.now();
    const r = await cli(['call', 'ask_upload', '--elicit', `@${answers}`, ...server('--no-files-capability')]);
    assert.equal(r.code, 1, r.err);
    assert.match(
      r.err,
      /doc: asked-sparse\.bin: this tool takes files only by out-of-band upload, and node did not declare the files capability \(SEP-2631\), so it takes no uploads/,
    );
    assert.ok(bytesReadByThisProcess() - readBefore < 256 * MiB, `${bytesReadByThisProcess() - readBefore} bytes read`);
    assert.ok(Date.now() - started < 20_000);
  });

  test("on a terminal, consent to an elicitation answer's upload names the host; no returns to the question and sends nothing", async () => {
    const file = await makeFile('asked-host.bin', MiB);
    const host = new URL(store.url).host;
    const before = storeRequests().length;
    const no = await cli(['call', 'ask_upload', '--verbose', ...server()], { stdin: Readable.from(['a\n', `${file.path}\n`, 'y\n', 'n\n', 'c\n']) });
    assert.equal(no.code, 0, no.err);
    assert.deepEqual(JSON.parse(no.out), { answer: 'cancel' });
    assert.ok(no.err.includes(`doc: asked-host.bin (1 MiB) uploaded to ${host}\n`), no.err);
    assert.match(no.err, /Upload\? \[y\]es, \[n\]o \(back to the question\)/);
    assert.match(no.err, /the upload of asked-host\.bin to .* was not confirmed: nothing was sent/);
    assert.equal((no.err.match(/Answer\? \[a\]ccept/g) ?? []).length, 2, 'asked again after no');
    assert.equal(storeRequests().length, before, 'no byte reached the store');
    const yes = await cli(['call', 'ask_upload', ...server()], { stdin: Readable.from(['a\n', `${file.path}\n`, 'y\n', 'y\n']) });
    assert.equal(yes.code, 0, yes.err);
    assert.deepEqual(JSON.parse(yes.out), { answer: 'accept', via: 'upload', size: MiB, sha256: file.sha256, mimeType: 'application/octet-stream' });
  });

  test('a presigned PUT descriptor is honoured as well', async () => {
    const file = await makeFile('put.bin', 5 * MiB);
    const r = await cli(['call', 'inspect_upload', '--file', `doc=${file.path}`, ...server('--put')]);
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).sha256, file.sha256);
  });
});

describe('file outputs', () => {
  test('a resource that is a file (FileResourceContents) is listed, saved with --save-files or --out after its checks; a corrupted one leaves nothing', async () => {
    const gets = () => storeRequests().filter((q) => q.method === 'GET').length;
    const before = gets();
    const listed = await cli(['resource', 'read', 'transfer://outputs/table.bin?size=300000', ...server('--era', '2025')]);
    assert.equal(listed.code, 0, listed.err);
    assert.match(listed.out, /^\[file table\.bin, 293 KiB, application\/octet-stream, mcp-file:\/\/transfer-fixture\/[0-9a-f-]+\]\n$/);
    assert.match(listed.err, /files are not downloaded; --save-files DIR or --out FILE saves them/);
    assert.equal(gets(), before, 'nothing is downloaded unasked');

    const out = mkdtempSync(join(dir, 'resource-'));
    const saved = await cli(['resource', 'read', 'transfer://outputs/table.bin?size=300000', '--save-files', out, ...server('--era', '2025')]);
    assert.equal(saved.code, 0, saved.err);
    assert.deepEqual(readdirSync(out), ['table.bin']);
    assert.equal(readFileSync(join(out, 'table.bin')).length, 300000);

    const one = join(out, 'one.bin');
    const written = await cli(['resource', 'read', 'transfer://outputs/table.bin?size=1000', '--out', one, ...server('--era', '2025')]);
    assert.equal(written.code, 0, written.err);
    assert.match(written.err, /wrote table\.bin to .*one\.bin \(sha-256 verified\)/);
    assert.equal(readFileSync(one).length, 1000);

    const bad = join(out, 'bad.bin');
    const corrupt = await cli(['resource', 'read', 'transfer://outputs/table.bin?size=1000&corrupt=1', '--out', bad, ...server('--era', '2025')]);
    assert.equal(corrupt.code, 5, corrupt.err);
    assert.match(corrupt.err, /saving table\.bin failed: .*sha-256.*nothing was saved for it/);
    assert.deepEqual(readdirSync(out).sort(), ['one.bin', 'table.bin'], 'nothing is left of the corrupted download');
  });

  test('listed as lines, saved with --save-files after the digest checked (both eras); a corrupted download leaves nothing', async () => {
    for (const era of ['2026', '2025']) {
      const out = mkdtempSync(join(dir, 'saved-'));
      const r = await cli(['call', 'make_file', '--args', '{"size":3000000}', '--save-files', out, ...server('--era', era)]);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /\[file report\.bin, 2\.9 MiB, application\/octet-stream, mcp-file:\/\/transfer-fixture\/[0-9a-f-]+\]/);
      assert.equal((r.out.match(/\[file /g) ?? []).length, 1, 'a file in content and structuredContent is listed once');
      assert.deepEqual(readdirSync(out), ['report.bin']);
      assert.equal(readFileSync(join(out, 'report.bin')).length, 3000000);
      // Saved again: a free name, never an overwrite.
      const again = await cli(['call', 'make_file', '--args', '{"size":10}', '--save-files', out, ...server('--era', era)]);
      assert.equal(again.code, 0, again.err);
      assert.deepEqual(readdirSync(out).sort(), ['report (1).bin', 'report.bin']);

      const bad = mkdtempSync(join(dir, 'corrupt-'));
      const c = await cli(['call', 'make_file', '--args', '{"size":300000,"corrupt":true}', '--save-files', bad, ...server('--era', era)]);
      assert.equal(c.code, 5);
      assert.match(
        c.err,
        /saving report\.bin failed: digest mismatch: the sha-256 of the 300000 bytes that arrived is \S+, the server said \S+; nothing was saved/,
      );
      assert.deepEqual(readdirSync(bad), []);
    }
  });
});

describe('a file embedded in a tool result', () => {
  test('a FileResourceContents in a `resource` block is listed and saved with --save-files after its checks (both eras); a corrupted one leaves nothing', async () => {
    for (const era of ['2026', '2025']) {
      const out = mkdtempSync(join(dir, 'embedded-'));
      const r = await cli(['call', 'make_resource_file', '--args', '{"size":2500000,"name":"ledger.bin"}', '--save-files', out, ...server('--era', era)]);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /made ledger\.bin as a resource/);
      assert.match(r.out, /\[file ledger\.bin, 2\.4 MiB, application\/octet-stream, mcp-file:\/\/transfer-fixture\/[0-9a-f-]+\]/);
      assert.deepEqual(readdirSync(out), ['ledger.bin']);
      const saved = readFileSync(join(out, 'ledger.bin'));
      assert.equal(saved.length, 2500000);
      // The digest the server gave (--json shows the block as sent) is the saved bytes' sha-256.
      const raw = await cli([
        'call',
        'make_resource_file',
        '--json',
        '--args',
        '{"size":1000,"name":"small.bin"}',
        '--save-files',
        out,
        ...server('--era', era),
      ]);
      assert.equal(raw.code, 0, raw.err);
      const block = (
        JSON.parse(raw.out) as { content: Array<{ type: string; resource?: { content: { uri: string; size: number; digest: { value: string } } } }> }
      ).content[1]!;
      assert.equal(block.type, 'resource');
      assert.equal(block.resource!.content.size, 1000);
      const small = readFileSync(join(out, 'small.bin'));
      assert.equal(createHash('sha256').update(small).digest('base64url'), block.resource!.content.digest.value);

      const bad = mkdtempSync(join(dir, 'embedded-corrupt-'));
      const c = await cli(['call', 'make_resource_file', '--args', '{"size":300000,"corrupt":true}', '--save-files', bad, ...server('--era', era)]);
      assert.equal(c.code, 5, c.err);
      assert.match(
        c.err,
        /saving report\.bin failed: digest mismatch: the sha-256 of the 300000 bytes that arrived is \S+, the server said \S+; nothing was saved/,
      );
      assert.deepEqual(readdirSync(bad), []);
    }
  });
});

describe('the core over Streamable HTTP', () => {
  test('no Authorization header of the MCP session reaches the store; an upload is cancelled mid-way; a file block survives HTTP and is saved', async () => {
    const mcp = await startTransferHttp(['--store', store.url]);
    const secret = 'Bearer session-secret-4711';
    const conn = new ServerConnection(httpServer('transfer', mcp.url, { Authorization: secret }), {
      log: new Logger(() => undefined, 'error'),
      capabilities: { files: true },
    });
    try {
      await conn.start();
      const file = await makeFile('http.bin', 20 * MiB);
      const tool = conn.tools.find((t) => t.name === 'inspect_upload')!;
      const slot = findFileSlots(tool).slots[0]!;
      const limits = inlineLimitsFor('http', { transfer: {} });
      const check = await checkFile(file.path, slot, limits);
      assert.ok(check.ok && check.file.upload);
      const uri = await conn.transfers.uploadFile(check.file, {});
      const result = await conn.callTool('inspect_upload', { doc: uri });
      assert.equal(JSON.parse((result.content[0] as { text: string }).text).sha256, file.sha256);

      const abort = new AbortController();
      await assert.rejects(
        conn.transfers.uploadFile(check.file, {
          signal: abort.signal,
          onBytes: (n) => {
            if (n > MiB) abort.abort();
          },
        }),
        /cancelled/,
      );
      assert.ok(storeRequests().length > 0);
      assert.ok(storeRequests().every((q) => q.authorization !== secret && !(q.authorization ?? '').includes('session-secret')));

      // A run's own cancel is a CallCancelledError wherever it lands (how the panel tells it from a failure):
      // authorizing an upload, or sending one.
      const isCancel = (e: Error) => e instanceof CallCancelledError && /cancelled/.test(e.message);
      await assert.rejects(
        authorizeUploads([{ slot, files: [check.file] }], () => limits, conn.transfers, AbortSignal.abort()),
        isCancel,
      );
      const run = new AbortController();
      await assert.rejects(
        encodeFileSlots(
          {},
          [{ slot, files: [check.file] }],
          () => limits,
          { workspaceRoots: [], serverIsLocalStdio: false, uploader: conn.transfers },
          undefined,
          {
            signal: run.signal,
            reporter: {
              report: (_f, sent) => {
                if (sent > MiB) run.abort();
              },
              done: () => undefined,
            },
          },
        ),
        isCancel,
      );

      // A file output read back through files/authorizeDownload: a `file` block over HTTP survives the SDK.
      const made = await conn.callTool('make_file', { size: 1000 });
      const view = toResultView(made);
      const item = view.items.find((i) => i.kind === 'file');
      assert.ok(item && item.kind === 'file' && item.digest && item.size === 1000);
      const target = join(dir, 'from-http.bin');
      assert.deepEqual(await conn.transfers.saveFile({ uri: item.uri, size: 1000, digest: item.save!.digest! }, target, { maxBytes: MiB }), { bytes: 1000 });
      await assert.rejects(
        conn.transfers.saveFile({ uri: 'mcp-file://transfer-fixture/nope', name: 'x' }, join(dir, 'nope.bin'), { maxBytes: MiB }),
        /unknown or expired file URI/,
      );
    } finally {
      await conn.stop();
      await mcp.stop();
    }
  });
});

describe('the files capability', () => {
  test('read from the raw discovery (the SDK drops it), kept with a remembered one, and absent when the server declared none', async () => {
    const cache = new InMemoryEraCache();
    const connect = async (...args: string[]) => {
      const conn = new ServerConnection(stdioFixture('transfer-server.ts', ['--store', store.url, ...args], 'transfer'), {
        log: new Logger(() => undefined, 'error'),
        capabilities: { files: true },
        eraCache: cache,
      });
      await conn.start();
      try {
        return { declared: conn.serverFilesCapability, refusal: conn.transfers.uploadRefusal };
      } finally {
        await conn.stop();
      }
    };
    const first = await connect();
    assert.deepEqual(first.declared, { upload: true, download: true });
    assert.equal(first.refusal, undefined);
    const remembered = await connect();
    assert.deepEqual(remembered.declared, { upload: true, download: true }, 'a remembered discovery still says the server takes uploads');
    const none = await connect('--no-files-capability');
    assert.equal(none.declared, undefined);
    assert.match(none.refusal ?? '', /transfer did not declare the files capability \(SEP-2631\), so it takes no uploads/);
  });
});

describe('rules', () => {
  test("transfer modes: inline only, upload only (never inline, even small), or the host's choice by size", () => {
    const slot = (modes?: ('inline' | 'upload')[]) => ({
      path: ['f'],
      label: 'f',
      multiple: false,
      required: true,
      origin: 'x-mcp-file' as const,
      ...(modes ? { transferModes: modes } : {}),
    });
    const on = inlineLimitsFor('stdio', { transfer: { inlineUpToBytes: 1000 } });
    const off = inlineLimitsFor('stdio');
    assert.deepEqual(planTransfer(slot(['inline']), 10 * MiB, on), { mode: 'inline' });
    assert.deepEqual(planTransfer(slot(['upload']), 1, on), { mode: 'upload' });
    assert.deepEqual(planTransfer(slot(), 1000, on), { mode: 'inline' });
    assert.deepEqual(planTransfer(slot(), 1001, on), { mode: 'upload' });
    assert.deepEqual(planTransfer(slot(), 10 * MiB, off), { mode: 'inline' });
    assert.match((planTransfer(slot(['upload']), 1, off) as { refused: string }).refused, /turned off/);
  });

  test('addresses: loopback, private, link-local and public; a server may point only at its own kind', async () => {
    assert.equal(addressKind('127.0.0.1'), 'loopback');
    assert.equal(addressKind('::ffff:10.0.0.1'), 'private');
    assert.equal(addressKind('169.254.169.254'), 'link-local');
    assert.equal(addressKind('fe80::1'), 'link-local');
    assert.equal(addressKind('fd00::1'), 'private');
    assert.equal(addressKind('93.184.216.34'), 'public');
    const local = await destinationPolicyFor(undefined);
    assert.ok('url' in (await checkDestination('http://127.0.0.1:9/x', local)));
    assert.match(((await checkDestination('http://example.com/x', local)) as { refused: string }).refused, /not HTTPS/);
    const remote = await destinationPolicyFor('https://93.184.216.34/mcp');
    assert.match(((await checkDestination('https://127.0.0.1/x', remote)) as { refused: string }).refused, /loopback/);
    assert.match(((await checkDestination('https://user:pw@93.184.216.34/x', remote)) as { refused: string }).refused, /user name or password/);
  });

  test("draft shapes pass the SDK's schemas shielded and come back as sent", () => {
    const block = { type: 'file', file: { uri: 'mcp-file://s/1', name: 'a.pdf', size: 3 } };
    const resource = { uri: 'mcp-resource://r/monthly.pdf', mimeType: 'application/pdf', content: { uri: 'mcp-file://s/2' } };
    const embedded = { type: 'resource', resource };
    const plain = { type: 'resource', resource: { uri: 'r://t', text: 'kept as it is' } };
    const raw = { content: [{ type: 'text', text: 'hi' }, block, embedded, plain], contents: [resource] };
    shieldDraftShapes(raw);
    assert.deepEqual(
      raw.content.map((b) => b.type),
      ['text', 'text', 'text', 'resource'],
    );
    assert.equal(typeof (raw.contents[0] as { text?: string }).text, 'string');
    restoreDraftShapes(raw);
    assert.deepEqual(raw, { content: [{ type: 'text', text: 'hi' }, block, embedded, plain], contents: [resource] });
    // A prompt's message may embed one too.
    const prompt = {
      messages: [
        { role: 'user', content: embedded },
        { role: 'assistant', content: { type: 'text', text: 'ok' } },
      ],
    };
    shieldDraftShapes(prompt);
    assert.equal(prompt.messages[0]!.content.type, 'text');
    restoreDraftShapes(prompt);
    assert.deepEqual(
      prompt.messages.map((m) => m.content),
      [embedded, { type: 'text', text: 'ok' }],
    );
  });

  test('a 10-byte file output written to disk by hand is not taken for a file: FileValues need a uri and metadata', () => {
    writeFileSync(join(dir, 'x'), 'x');
    const view = toResultView({ content: [], structuredContent: { a: { uri: 'https://x' }, b: { uri: 'mcp-file://s/1', size: 5 } } });
    assert.deepEqual(
      view.items.map((i) => i.kind === 'file' && i.uri),
      ['mcp-file://s/1'],
    );
  });
});
