// The demo server (examples/demo-server) driven by the SDK client over stdio (both protocol eras)
// and Streamable HTTP: the tools people try first must behave.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { encodeDataUri, findElicitationFileFields, findFileOutputs, findFileSlots } from '../../src/core/files';
import { bundleServer } from '../helpers/bundle';
import { resultText } from '../helpers/results';

const work = mkdtempSync(join(tmpdir(), 'mcp-host-demo-'));
const serverJs = join(work, 'demo-server.js');

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNkYGBgAAAABQABWaDDsAAAAABJRU5ErkJggg==', 'base64');
const PNG_URI = encodeDataUri(PNG, 'image/png');
// A 3x2 GIF header and a minimal JPEG with a 640x480 start-of-frame.
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([3, 0, 2, 0, 0, 0, 0]), Buffer.from(';')]);
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000ffc000110801e00280030122000211010311 01ffd9'.replace(/ /g, ''), 'hex');

before(() => bundleServer('examples/demo-server/server.ts', serverJs));
after(() => rmSync(work, { recursive: true, force: true }));

interface Elicited {
  requestedSchema: unknown;
  message: string;
}

async function connect(mode: 'legacy' | 'auto', answer: (req: Elicited) => Record<string, unknown>, seen: Elicited[]): Promise<Client> {
  const client = new Client({ name: 'demo-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } });
  // The loose params schema keeps x-mcp-file, which the SDK's own schema strips.
  client.setRequestHandler('elicitation/create', { params: z.looseObject({}) }, async (params) => {
    const req = params as unknown as Elicited;
    seen.push(req);
    return answer(req) as never;
  });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [serverJs] }));
  return client;
}

describe('demo server over stdio', () => {
  let client: Client;
  before(async () => {
    client = await connect('legacy', () => ({ action: 'decline' }), []);
  });
  after(async () => client?.close());

  test('its tools declare file slots the engine finds: limits, arrays and a filename companion', async () => {
    const { tools } = await client.listTools();
    const slots = Object.fromEntries(tools.map((t) => [t.name, findFileSlots(t).slots]));
    assert.deepEqual(
      slots.describe_file!.map((s) => [s.label, s.maxSize, s.required]),
      [['file', 5 * 1024 * 1024, true]],
    );
    assert.deepEqual(
      slots.compare_images!.map((s) => [s.label, s.multiple, s.minItems, s.maxItems]),
      [['images', true, 2, 4]],
    );
    assert.deepEqual(
      slots.attach_note!.map((s) => [s.label, s.maxSize, s.filenameCompanion]),
      [['attachment', 65536, ['file_name']]],
    );
    for (const t of tools) assert.ok(t.title && t.description, `${t.name} has a title and description`);
  });

  test('describe_file reports type, size, SHA-256 and image dimensions for PNG, GIF and JPEG', async () => {
    const png = resultText(await client.callTool({ name: 'describe_file', arguments: { file: PNG_URI } }));
    assert.match(png, /Type: image\/png\nSize: 70 bytes\nSHA-256: eb5e04ca5064b43b28cd0a38f9866a23e4598b7946971463c6866a719714390c\nImage: PNG, 1 × 1 pixels/);
    const gif = resultText(await client.callTool({ name: 'describe_file', arguments: { file: encodeDataUri(GIF, 'image/gif') } }));
    assert.match(gif, /Image: GIF, 3 × 2 pixels/);
    const jpeg = resultText(await client.callTool({ name: 'describe_file', arguments: { file: encodeDataUri(JPEG, 'image/jpeg') } }));
    assert.match(jpeg, /Image: JPEG, 640 × 480 pixels/);
  });

  test('a file over a limit is refused server-side with isError naming the argument and the limit', async () => {
    const big = encodeDataUri(Buffer.alloc(70 * 1024), 'application/octet-stream');
    const r = await client.callTool({ name: 'attach_note', arguments: { attachment: big, note: 'x' } });
    assert.equal(r.isError, true);
    assert.equal(resultText(r), "Argument 'attachment' exceeds maxSize: received 71680 bytes, limit is 65536.");
    const scheme = await client.callTool({ name: 'describe_file', arguments: { file: 'file:///etc/passwd' } });
    assert.equal(scheme.isError, true);
    assert.match(resultText(scheme), /Argument 'file' uses the file: scheme/);
  });

  test('compare_images checks content, not the claimed type, and spots identical images', async () => {
    const fake = encodeDataUri(Buffer.from('%PDF-1.4\n'), 'image/png');
    const r = await client.callTool({ name: 'compare_images', arguments: { images: [PNG_URI, fake] } });
    assert.equal(r.isError, true);
    assert.match(resultText(r), /Argument 'images\[1\]' claims image\/png but its content is application\/pdf/);
    const same = await client.callTool({ name: 'compare_images', arguments: { images: [PNG_URI, PNG_URI, encodeDataUri(GIF, 'image/gif')] } });
    assert.match(resultText(same), /Some of these images are identical/);
  });

  test('attach_note files the note with the companion file name', async () => {
    const r = await client.callTool({ name: 'attach_note', arguments: { attachment: PNG_URI, file_name: 'dot.png', note: 'tiny' } });
    assert.equal(resultText(r), 'Filed a note about "dot.png" (image/png, 70 bytes):\ntiny');
  });

  test('export_report returns the file as a FileOutput and as an embedded resource', async () => {
    const r = await client.callTool({ name: 'export_report', arguments: { title: 'Q3 sales', rows: 3 } });
    const outputs = findFileOutputs(r.structuredContent);
    assert.equal(outputs.length, 1);
    assert.deepEqual([outputs[0]!.filename, outputs[0]!.mimeType, outputs[0]!.path], ['Q3-sales.csv', 'text/csv', ['report']]);
    const source = outputs[0]!.source;
    assert.ok(source.kind === 'content');
    const csv = Buffer.from(source.base64, 'base64').toString();
    assert.match(csv, /^# Q3 sales\nday,visits,signups\n1,37,7\n/);
    assert.equal(outputs[0]!.sizeBytes, source.size);
    const resource = (r.content as Array<{ type: string; resource?: { blob?: string; mimeType?: string } }>).find((c) => c.type === 'resource');
    assert.equal(resource?.resource?.blob, source.base64);
    const { tools } = await client.listTools();
    const schema = tools.find((t) => t.name === 'export_report')?.outputSchema as { properties: { report: Record<string, unknown> } };
    assert.equal(schema.properties.report['x-mcp-file-mode'], 'output');
  });

  test('slow_count reports progress about five times a second and stops when cancelled', async () => {
    const progress: number[] = [];
    const controller = new AbortController();
    const started = Date.now();
    const call = client.callTool(
      { name: 'slow_count', arguments: { seconds: 10 } },
      {
        signal: controller.signal,
        onprogress: (p) => {
          progress.push(p.progress);
          if (p.progress >= 3) controller.abort();
        },
      },
    );
    await assert.rejects(call);
    assert.ok(Date.now() - started < 3000, 'cancelled promptly');
    assert.deepEqual(progress.slice(0, 3), [1, 2, 3]);
  });
});

const receipt = (content: Record<string, unknown>) => () => ({ action: 'accept', content });

for (const mode of ['legacy', 'auto'] as const) {
  test(`receipt_from_photo asks for a photo with an x-mcp-file field (${mode === 'legacy' ? 'server-initiated' : 'MRTR'} path)`, async () => {
    const seen: Elicited[] = [];
    const client = await connect(mode, receipt({ photo: PNG_URI, merchant: 'Corner Café', total: 4.5 }), seen);
    try {
      const r = await client.callTool({ name: 'receipt_from_photo', arguments: { category: 'meals' } });
      assert.match(resultText(r), /^Recorded a receipt from Corner Café \(meals\): 4\.50\.\nPhoto: image\/png, 70 bytes, 1 × 1/);
      assert.equal(seen.length, 1);
      const fields = findElicitationFileFields(seen[0]!.requestedSchema);
      assert.deepEqual(
        fields.slots.map((s) => [s.label, s.accept, s.maxSize, s.required]),
        [['photo', ['image/*'], 5 * 1024 * 1024, true]],
      );
    } finally {
      await client.close();
    }
  });
}

test('receipt_from_photo asks again when the photo is not an image (MRTR), and accepts a decline', async () => {
  const seen: Elicited[] = [];
  const answers = [{ action: 'accept', content: { photo: encodeDataUri(Buffer.from('%PDF-1.4\n'), 'application/pdf') } }, { action: 'decline' }];
  const client = await connect('auto', () => answers[Math.min(seen.length - 1, 1)]!, seen);
  try {
    const r = await client.callTool({ name: 'receipt_from_photo', arguments: {} });
    assert.equal(seen.length, 2);
    assert.match(seen[1]!.message, /Argument 'photo' has media type application\/pdf; accepted: image\/\*\./);
    assert.equal(resultText(r), 'No receipt recorded (you chose decline).');
  } finally {
    await client.close();
  }
});

test('demo server serves Streamable HTTP on 127.0.0.1 with --http', async () => {
  const child: ChildProcess = spawn(process.execPath, [serverJs, '--http', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let err = '';
      child.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
        if (m) resolve(m[1]!);
      });
      child.on('exit', () => reject(new Error(`demo server exited: ${err}`)));
    });
    for (const mode of ['legacy', 'auto'] as const) {
      const client = new Client({ name: 'demo-http', version: '1.0.0' }, { versionNegotiation: { mode } });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const r = await client.callTool({ name: 'describe_file', arguments: { file: PNG_URI } });
      assert.match(resultText(r), /Type: image\/png\nSize: 70 bytes/);
      await client.close();
    }
  } finally {
    child.kill();
  }
});
