// The CLI's file options against a real validating server (test/fixtures/file-server.ts) that records
// every tools/call it receives. The first group drives applyFileOptions over the host's ServerConnection
// (the tools as the host keeps them); the second runs `node dist/cli.js call ... --file ARG=PATH` end to end.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { applyFileOptions, describeFileSlots } from '../../src/cli/files';
import { ServerConnection } from '../../src/core/connection';
import { DEFAULT_HTTP_MAX_BYTES, encodeDataUri, findFileSlots } from '../../src/core/files';
import { InputRefusedError } from '../../src/core/errors';
import { Logger } from '../../src/core/log';
import { bundleServer } from '../helpers/bundle';

const root = join(__dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'mcp-host-cli-files-'));
const serverJs = join(work, 'file-server.js');
const recordFile = join(work, 'calls.jsonl');

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNkYGBgAAAABQABWaDDsAAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1');

function fixtureFile(name: string, bytes: Buffer | string): string {
  const p = join(work, name);
  writeFileSync(p, bytes);
  return p;
}

const png = fixtureFile('dot.png', PNG);
const png2 = fixtureFile('other.png', Buffer.concat([PNG, Buffer.from('trailing bytes')]));
const big = fixtureFile('big.png', Buffer.concat([PNG, Buffer.alloc(70 * 1024 - PNG.length)]));
const pdf = fixtureFile('report.pdf', PDF);
const text = fixtureFile('notes.txt', 'hello world\n');
const heic = fixtureFile('photo.heic', Buffer.concat([Buffer.from('0000001866747970686569630000000068656963', 'hex'), Buffer.alloc(64)]));

interface Recorded {
  tool: string;
  arguments: Record<string, unknown>;
}
function recorded(): Recorded[] {
  if (!existsSync(recordFile)) return [];
  return readFileSync(recordFile, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Recorded);
}

interface Summary {
  files: Record<string, { mediaType?: string; size?: number; params?: Record<string, string>; filename?: string; mime_type?: string }>;
  plain: Record<string, unknown>;
}

before(() => bundleServer('test/fixtures/file-server.ts', serverJs));
after(() => rmSync(work, { recursive: true, force: true }));

const fixtureEnv = { ...process.env, FILE_FIXTURE_RECORD: recordFile } as Record<string, string>;

describe('applyFileOptions against the recording server', () => {
  let connection: ServerConnection;
  const tools = new Map<string, Parameters<typeof describeFileSlots>[0]>();
  const log = new Logger(() => undefined);

  before(async () => {
    connection = new ServerConnection({ name: 'files', transport: 'stdio', command: process.execPath, args: [serverJs], env: fixtureEnv }, { log });
    await connection.start();
    for (const t of connection.tools) tools.set(t.name, t);
  });
  after(async () => connection?.stop());

  async function call(tool: string, specs: string[], args: Record<string, unknown> = {}): Promise<Summary> {
    await applyFileOptions(tools.get(tool)!, args, specs, 'stdio', log);
    const result = await connection.callTool(tool, args);
    const first = (result.content as Array<{ type: string; text: string }>)[0];
    assert.ok(!result.isError, `server refused: ${first?.text}`);
    return JSON.parse(first!.text) as Summary;
  }

  test('a 70-byte PNG arrives as image/png, 70 bytes', async () => {
    const got = await call('inspect_image', [`image=${png}`]);
    assert.deepEqual([got.files.image!.mediaType, got.files.image!.size], ['image/png', 70]);
  });

  test('a 70 KB file for a 64 KB slot is refused locally with InputRefusedError and never sent', async () => {
    const before = recorded().length;
    const args: Record<string, unknown> = {};
    await assert.rejects(applyFileOptions(tools.get('inspect_image')!, args, [`image=${big}`], 'stdio', log), (e: unknown) => {
      assert.ok(e instanceof InputRefusedError);
      assert.equal(e.message, 'image: big.png is 70 KiB (71,680 bytes); this tool accepts at most 64 KiB (65,536 bytes)');
      assert.equal(e.argument, 'image');
      return true;
    });
    assert.deepEqual(args, {});
    assert.equal(recorded().length, before);
  });

  test('a file of the wrong type is refused with the accepted types', async () => {
    await assert.rejects(
      applyFileOptions(tools.get('inspect_image')!, {}, [`image=${heic}`], 'stdio', log),
      /image: photo\.heic is image\/heic; this tool accepts image\/png, image\/jpeg/,
    );
  });

  test('a nested slot is filled with ARG.sub=PATH beside other arguments', async () => {
    const got = await call('file_report', [`doc.attachment=${pdf}`], { doc: { title: 'Q3' } });
    assert.deepEqual([got.files['doc.attachment']!.mediaType, got.files['doc.attachment']!.size], ['application/pdf', PDF.length]);
  });

  test('repeating ARG fills an array slot in order; more than maxItems is refused', async () => {
    const got = await call('gallery', [`images=${png}`, `images=${png2}`]);
    assert.deepEqual(Object.keys(got.files), ['images.0', 'images.1']);
    assert.equal(got.files['images.1']!.size, PNG.length + 14);
    await assert.rejects(
      applyFileOptions(tools.get('gallery')!, {}, Array(4).fill(`images=${png}`), 'stdio', log),
      /images: takes at most 3 files, but --file named 4/,
    );
    await assert.rejects(
      applyFileOptions(tools.get('inspect_image')!, {}, [`image=${png}`, `image=${png2}`], 'stdio', log),
      /image: takes one file, but --file named 2/,
    );
  });

  test('the host keeps the top-level inputFiles the server sent, which the SDK client alone drops', async () => {
    const sent = { report: { accept: ['application/pdf'], maxSize: 4096 } };
    assert.deepEqual((tools.get('legacy_sidecar') as { inputFiles?: unknown }).inputFiles, sent);
    assert.deepEqual(
      findFileSlots(tools.get('legacy_sidecar')!).slots.map((s) => [s.label, s.origin, s.maxSize]),
      [['report', 'inputFiles', 4096]],
    );
    const bare = new Client({ name: 'files-bare', version: '1.0.0' });
    await bare.connect(new StdioClientTransport({ command: process.execPath, args: [serverJs], env: fixtureEnv }));
    try {
      const tool = (await bare.listTools()).tools.find((t) => t.name === 'legacy_sidecar')!;
      assert.equal((tool as { inputFiles?: unknown }).inputFiles, undefined);
      assert.equal(tool._meta, undefined, 'the fixture sends the map only as inputFiles');
    } finally {
      await bare.close();
    }
  });

  test('each older shape is filled: x-mcp-file on the array, mcpFile, and the sidecar map', async () => {
    const arr = await call('legacy_array', [`files=${text}`, `files=${png}`]);
    assert.deepEqual(
      Object.values(arr.files).map((f) => f.mediaType),
      ['text/plain', 'image/png'],
    );
    const mcp = await call('legacy_mcpfile', [`upload=${text}`]);
    assert.equal(mcp.files.upload!.size, 12);
    const side = await call('legacy_sidecar', [`report=${pdf}`]);
    assert.equal(side.files.report!.mediaType, 'application/pdf');
  });

  test('a FileInput object gets base64 content, filename and mime_type', async () => {
    const got = await call('store_file', [`upload=${png}`]);
    assert.deepEqual(got.files.upload, { filename: 'dot.png', mime_type: 'image/png', size: 70 });
  });

  test('the filename companion is filled from the same file unless given', async () => {
    const got = await call('named_note', [`file=${pdf}`], { note: 'see attached' });
    assert.equal(got.plain.file_name, 'report.pdf');
    const kept = await call('named_note', [`file=${pdf}`], { note: 'n', file_name: 'Renamed.pdf' });
    assert.equal(kept.plain.file_name, 'Renamed.pdf');
  });

  test('a file at the stdio ceiling (7 MiB) arrives intact; one byte more is refused before reading', async () => {
    const bytes = Buffer.alloc(7 * 1024 * 1024, 0x5a);
    const atCeiling = fixtureFile('ceiling.bin', bytes);
    const got = await call('large_upload', [`blob=${atCeiling}`]);
    assert.deepEqual([got.files.blob!.mediaType, got.files.blob!.size], ['application/octet-stream', bytes.length]);
    const over = fixtureFile('over.bin', Buffer.alloc(bytes.length + 1));
    await assert.rejects(
      applyFileOptions(tools.get('large_upload')!, {}, [`blob=${over}`], 'stdio', log),
      /blob: over\.bin is 7 MiB \(7,340,033 bytes\); at most 7 MiB \(7,340,032 bytes\) can be sent inline to a stdio server/,
    );
  });

  test('files that only fit the transport one at a time are refused together, before anything is sent', async () => {
    const before = recorded().length;
    const a = fixtureFile('a.txt', 'a'.repeat(600));
    const b = fixtureFile('b.txt', 'b'.repeat(600));
    await assert.rejects(
      applyFileOptions(tools.get('legacy_array')!, {}, [`files=${a}`, `files=${b}`], 'stdio', log, { limits: { stdioMaxBytes: 1000 } }),
      (e: unknown) => e instanceof InputRefusedError && /^files: 2 files \(a\.txt, b\.txt\) add up to 1\.2 KiB/.test(e.message),
    );
    assert.equal(recorded().length, before);
  });

  test('the legacy ;name= parameter is sent only when asked for', async () => {
    const args: Record<string, unknown> = {};
    await applyFileOptions(tools.get('inspect_image')!, args, [`image=${png}`], 'stdio', log, { legacyName: true });
    assert.match(args.image as string, /^data:image\/png;name=dot\.png;base64,/);
  });

  test('unknown arguments, malformed options and a missing required file are refused with what to do', async () => {
    await assert.rejects(
      applyFileOptions(tools.get('inspect_image')!, {}, [`picture=${png}`], 'stdio', log),
      /'picture' is not a file argument of this tool \(file arguments: image\)/,
    );
    await assert.rejects(applyFileOptions(tools.get('inspect_image')!, {}, [png], 'stdio', log), /expected ARG=PATH/);
    await assert.rejects(
      applyFileOptions(tools.get('inspect_image')!, {}, [], 'stdio', log),
      /image: this tool needs a file \(image\/png, image\/jpeg\); pass --file image=PATH/,
    );
  });

  test('tools lists each file slot with its accept and size, and a misplaced keyword as a warning', () => {
    assert.deepEqual(describeFileSlots(tools.get('inspect_image')!), ['image  file  accept image/png, image/jpeg  max 64 KiB  required']);
    assert.deepEqual(describeFileSlots(tools.get('gallery')!), ['images  files (1-3)  accept image/*  max 1000 bytes each  required']);
    assert.deepEqual(describeFileSlots(tools.get('named_note')!), ['file  file  accept any file  max 64 KiB  required  name goes to file_name']);
    assert.deepEqual(describeFileSlots(tools.get('store_file')!), ['upload  file  object (content/path/s3)  accept any file  required']);
    const warning = describeFileSlots(tools.get('misplaced_keyword')!);
    assert.equal(warning.length, 1);
    assert.match(warning[0]!, /^warning: tool 'misplaced_keyword': property 'notes'/);
  });
});

describe('the HTTP ceiling against an SDK server with its default 4 MiB body limit', () => {
  let child: ChildProcess;
  let client: Client;
  let tool: Parameters<typeof describeFileSlots>[0];
  const log = new Logger(() => undefined);

  before(async () => {
    child = spawn(process.execPath, [serverJs, '--http'], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, FILE_FIXTURE_RECORD: recordFile } });
    const url = await new Promise<string>((resolve, reject) => {
      let err = '';
      child.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        const m = /listening on (http:\S+)/.exec(err);
        if (m) resolve(m[1]!);
      });
      child.on('exit', () => reject(new Error(`fixture exited: ${err}`)));
    });
    client = new Client({ name: 'files-http', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    tool = (await client.listTools()).tools.find((t) => t.name === 'large_upload')!;
  });
  after(async () => {
    await client?.close();
    child?.kill();
  });

  test('a file at the default HTTP ceiling arrives; a little more is refused locally, and the server would have refused it too', async () => {
    const atCeiling = fixtureFile('http-ceiling.bin', Buffer.alloc(DEFAULT_HTTP_MAX_BYTES, 1));
    const args: Record<string, unknown> = {};
    await applyFileOptions(tool, args, [`blob=${atCeiling}`], 'http', log);
    const ok = await client.callTool({ name: 'large_upload', arguments: args });
    assert.ok(!ok.isError);
    assert.match((ok.content as Array<{ text: string }>)[0]!.text, new RegExp(`"size":${DEFAULT_HTTP_MAX_BYTES}`));

    const over = fixtureFile('http-over.bin', Buffer.alloc(DEFAULT_HTTP_MAX_BYTES + 64 * 1024, 1));
    await assert.rejects(
      applyFileOptions(tool, {}, [`blob=${over}`], 'http', log),
      /can be sent inline to an HTTP server \(HTTP servers built on the MCP SDK refuse request bodies over 4 MiB\)/,
    );
    await assert.rejects(client.callTool({ name: 'large_upload', arguments: { blob: encodeDataUri(readFileSync(over), 'application/octet-stream') } }));
  });
});

// Runs the built CLI (`node scripts/build.mjs` first; `npm test` does).
const cli = join(root, 'dist/cli.js');

function runCli(args: string[], env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, ...args, '--', process.execPath, serverJs], {
    encoding: 'utf8',
    timeout: 30000,
    cwd: work,
    env: { ...process.env, FILE_FIXTURE_RECORD: recordFile, ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('mcp-host call --file', () => {
  before(() => assert.ok(existsSync(cli), 'dist/cli.js is missing: run node scripts/build.mjs'));

  test('a 70-byte PNG arrives as image/png, 70 bytes', () => {
    const before = recorded().length;
    const r = runCli(['call', 'inspect_image', '--file', `image=${png}`]);
    assert.equal(r.status, 0, r.stderr);
    const calls = recorded().slice(before);
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.arguments.image, `data:image/png;base64,${PNG.toString('base64')}`);
    assert.match(r.stdout, /"mediaType":"image\/png","size":70/);
  });

  test('a refused file exits 1 and the server records no call', () => {
    const before = recorded().length;
    const r = runCli(['call', 'inspect_image', '--file', `image=${big}`]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /image: big\.png is 70 KiB \(71,680 bytes\); this tool accepts at most 64 KiB/);
    assert.equal(recorded().length, before);
  });

  test('a wrong type exits 1 naming the accepted types', () => {
    const before = recorded().length;
    const r = runCli(['call', 'inspect_image', '--file', `image=${heic}`]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /photo\.heic is image\/heic; this tool accepts image\/png, image\/jpeg/);
    assert.equal(recorded().length, before);
  });

  test('arrays, nested slots, each older shape and a FileInput object arrive intact', () => {
    const before = recorded().length;
    const runs: string[][] = [
      ['call', 'gallery', '--file', `images=${png}`, '--file', `images=${png2}`],
      ['call', 'file_report', '--args', '{"doc":{"title":"Q3"}}', '--file', `doc.attachment=${pdf}`],
      ['call', 'legacy_array', '--file', `files=${text}`],
      ['call', 'legacy_mcpfile', '--file', `upload=${text}`],
      ['call', 'legacy_sidecar', '--file', `report=${pdf}`],
      ['call', 'store_file', '--file', `upload=${png}`],
      ['call', 'named_note', '--args', '{"note":"hi"}', '--file', `file=${pdf}`],
    ];
    for (const args of runs) {
      const r = runCli(args);
      assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    }
    const calls = recorded().slice(before);
    assert.deepEqual(
      calls.map((c) => c.tool),
      ['gallery', 'file_report', 'legacy_array', 'legacy_mcpfile', 'legacy_sidecar', 'store_file', 'named_note'],
    );
    assert.equal((calls[0]!.arguments.images as string[]).length, 2);
    assert.match((calls[1]!.arguments.doc as Record<string, string>).attachment!, /^data:application\/pdf;base64,/);
    assert.equal((calls[1]!.arguments.doc as Record<string, string>).title, 'Q3');
    assert.match((calls[2]!.arguments.files as string[])[0]!, /^data:text\/plain;base64,/);
    assert.match(calls[4]!.arguments.report as string, /^data:application\/pdf;base64,/);
    assert.deepEqual(calls[5]!.arguments.upload, { content: PNG.toString('base64'), filename: 'dot.png', mime_type: 'image/png' });
    assert.equal(calls[6]!.arguments.file_name, 'report.pdf');
  });

  test('tools shows the file slots with accept and max size', () => {
    const r = runCli(['tools']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /image\s+file\s+accept image\/png, image\/jpeg\s+max 64 KiB/);
  });

  test('--verbose with the traffic traced never prints file bytes: the data URI in the request is redacted', () => {
    const r = runCli(['call', 'inspect_image', '--verbose', '--file', `image=${png}`], { MCP_HOST_LOG_LEVEL: 'trace' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /image: dot\.png \(image\/png, 70 bytes\) attached/);
    assert.match(r.stderr, /\[host -> server\] .*"method":"tools\/call".*"image":"data:image\/png;base64,\[70 bytes\]"/);
    assert.ok(!r.stderr.includes(PNG.toString('base64').slice(0, 24)), 'file bytes in the verbose log');
  });

  test('a required file argument without --file is refused (exit 1) naming it, and nothing is sent', () => {
    const before = recorded().length;
    const r = runCli(['call', 'inspect_image']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /image: this tool needs a file \(image\/png, image\/jpeg\); pass --file image=PATH/);
    assert.equal(recorded().length, before);
  });

  test('a file argument in --args must be a data: URI: a path or another URI is refused locally and never read', () => {
    const before = recorded().length;
    for (const value of ['/etc/passwd', 'file:///etc/passwd', 'https://example.com/a.png']) {
      const r = runCli(['call', 'inspect_image', '--args', JSON.stringify({ image: value })]);
      assert.equal(r.status, 1, value);
      assert.ok(r.stderr.includes(`image: --args gives "${value}", but a file argument takes a data: URI`), r.stderr);
    }
    const nested = runCli(['call', 'gallery', '--args', JSON.stringify({ images: [`data:image/png;base64,${PNG.toString('base64')}`, '/etc/hosts'] })]);
    assert.equal(nested.status, 1);
    assert.match(nested.stderr, /images\[1\]: --args gives "\/etc\/hosts"/);
    assert.equal(recorded().length, before);
  });

  test('a data: URI in --args is checked like the server would check it, and described (not printed) in the log', () => {
    const before = recorded().length;
    const uri = `data:image/png;base64,${PNG.toString('base64')}`;
    const ok = runCli(['call', 'inspect_image', '--verbose', '--args', JSON.stringify({ image: uri })]);
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stderr, /\[info\] image: data: URI from --args \(image\/png, 70 bytes\)/);
    assert.ok(!ok.stderr.includes(PNG.toString('base64').slice(0, 24)));
    assert.equal(recorded().slice(before)[0]?.arguments.image, uri);
    const wrongType = runCli(['call', 'inspect_image', '--args', JSON.stringify({ image: 'data:text/plain;base64,aGk=' })]);
    assert.equal(wrongType.status, 1);
    assert.match(wrongType.stderr, /Argument 'image' has media type text\/plain; accepted: image\/png, image\/jpeg/);
    assert.equal(recorded().length, before + 1);
  });
});
