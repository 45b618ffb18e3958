// The MCP Host demo server: tools that take files (SEP-2356 `x-mcp-file`), ask for one through an
// elicitation, return a generated file, and report progress. stdio by default; `--http PORT` serves
// Streamable HTTP on 127.0.0.1.
//
//   node dist/demo-server.js             # stdio
//   node dist/demo-server.js --http 3001 # http://127.0.0.1:3001/mcp

import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import {
  acceptedContent,
  createMcpHandler,
  fromJsonSchema,
  inputRequired,
  McpServer,
  type CallToolResult,
  type jsonSchemaValidator,
  type McpRequestContext,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { checkDataUriValue, dataUriBytes, decideType, formatBytes, type ParsedDataUri } from '../../src/core/files';
import { imageSize } from './images';

const KiB = 1024;
const MiB = 1024 * KiB;

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

const describeFileLimits = { maxSize: 5 * MiB };
const imageLimits = { accept: IMAGE_TYPES, maxSize: 5 * MiB };
const noteLimits = { maxSize: 64 * KiB };
const receiptLimits = { accept: ['image/*'], maxSize: 5 * MiB };

type JsonSchema = Parameters<typeof fromJsonSchema>[0];

const acceptEverything: jsonSchemaValidator = {
  getValidator: () => ((input: unknown) => ({ valid: true, data: input, errorMessage: undefined })) as never,
};

function schema(value: Record<string, unknown>): ReturnType<typeof fromJsonSchema> {
  // No validator: each handler checks its own arguments and answers with isError naming the argument.
  return fromJsonSchema(value as JsonSchema, acceptEverything);
}

function fileField(title: string, description: string, descriptor: object): Record<string, unknown> {
  return { type: 'string', format: 'uri', title, description, 'x-mcp-file': descriptor };
}

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

function refused(reason: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: reason }] };
}

interface ReceivedFile {
  bytes: Buffer;
  declared: ParsedDataUri;
  /** What the bytes are, whatever the data URI claimed. */
  sniffed?: string;
}

function receive(argument: string, value: unknown, descriptor: { accept?: string[]; maxSize?: number }): ReceivedFile | string {
  const check = checkDataUriValue(argument, value, descriptor);
  if (!check.ok) return check.reason;
  const bytes = dataUriBytes(value as string, check.parsed);
  const sniffed = decideType('', bytes.subarray(0, 4100)).contentType;
  // The media type is only a claim: for image tools, the bytes must agree.
  if (descriptor.accept?.every((a) => a.startsWith('image/')) && sniffed !== undefined && !sniffed.startsWith('image/')) {
    return `Argument '${argument}' claims ${check.parsed.mediaType} but its content is ${sniffed}.`;
  }
  if (descriptor.accept?.every((a) => a.startsWith('image/')) && sniffed === undefined) {
    return `Argument '${argument}' claims ${check.parsed.mediaType} but its content is not a recognisable image.`;
  }
  return { bytes, declared: check.parsed, sniffed };
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function describe(file: ReceivedFile): string[] {
  const lines = [
    `Type: ${file.declared.mediaType}${file.sniffed && file.sniffed !== file.declared.mediaType ? ` (content looks like ${file.sniffed})` : ''}`,
    `Size: ${file.bytes.length < 1024 ? '' : `${formatBytes(file.bytes.length)}, `}${file.bytes.length} bytes`,
    `SHA-256: ${sha256(file.bytes)}`,
  ];
  const size = imageSize(file.bytes);
  if (size) lines.push(`Image: ${size.format}, ${size.width} × ${size.height} pixels`);
  return lines;
}

function registerTools(server: McpServer, era: McpRequestContext['era']): void {
  server.registerTool(
    'describe_file',
    {
      title: 'Describe a file',
      description: 'Tells you what a file is: its type, size and SHA-256 checksum, and the dimensions of PNG, JPEG and GIF images. Any file up to 5 MiB.',
      inputSchema: schema({
        type: 'object',
        properties: { file: fileField('File', 'The file to describe.', describeFileLimits) },
        required: ['file'],
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => {
      const file = receive('file', (args as Record<string, unknown>).file, describeFileLimits);
      return typeof file === 'string' ? refused(file) : text(describe(file).join('\n'));
    },
  );

  server.registerTool(
    'compare_images',
    {
      title: 'Compare images',
      description: 'Compares two to four images (PNG, JPEG, GIF or WebP, up to 5 MiB each): their sizes, dimensions and whether any are identical.',
      inputSchema: schema({
        type: 'object',
        properties: {
          images: {
            type: 'array',
            title: 'Images',
            description: 'The images to compare.',
            minItems: 2,
            maxItems: 4,
            items: fileField('Image', 'An image to compare.', imageLimits),
          },
        },
        required: ['images'],
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => {
      const images = (args as Record<string, unknown>).images;
      if (!Array.isArray(images) || images.length < 2 || images.length > 4) {
        return refused(`Argument 'images' must hold 2 to 4 images; received ${Array.isArray(images) ? images.length : 'no list'}.`);
      }
      const received: ReceivedFile[] = [];
      for (const [i, value] of images.entries()) {
        const file = receive(`images[${i}]`, value, imageLimits);
        if (typeof file === 'string') return refused(file);
        received.push(file);
      }
      const hashes = received.map((f) => sha256(f.bytes));
      const lines = received.map((f, i) => {
        const size = imageSize(f.bytes);
        return `${i + 1}. ${f.declared.mediaType}, ${formatBytes(f.bytes.length)}${size ? `, ${size.width} × ${size.height}` : ''}, sha256 ${hashes[i]!.slice(0, 12)}…`;
      });
      const same = new Set(hashes).size < hashes.length;
      lines.push(same ? 'Some of these images are identical.' : 'All images are different.');
      return text(lines.join('\n'));
    },
  );

  server.registerTool(
    'attach_note',
    {
      title: 'Attach a note to a file',
      description: 'Files a short note together with a small attachment (up to 64 KiB). The file name is filled in for you from the file you choose.',
      inputSchema: schema({
        type: 'object',
        properties: {
          attachment: fileField('Attachment', 'The file the note is about (at most 64 KiB).', noteLimits),
          file_name: { type: 'string', title: 'File name', description: 'The name of the attached file.' },
          note: { type: 'string', title: 'Note', description: 'What you want to say about the file.', maxLength: 2000 },
        },
        required: ['attachment', 'note'],
      }),
    },
    async (args) => {
      const a = args as Record<string, unknown>;
      const file = receive('attachment', a.attachment, noteLimits);
      if (typeof file === 'string') return refused(file);
      if (typeof a.note !== 'string' || a.note.trim() === '') return refused("Argument 'note' must be a non-empty text.");
      if (a.note.length > 2000) return refused(`Argument 'note' is ${a.note.length} characters; the limit is 2000.`);
      const name = typeof a.file_name === 'string' && a.file_name ? a.file_name : 'unnamed file';
      return text(`Filed a note about "${name}" (${file.declared.mediaType}, ${file.bytes.length} bytes):\n${a.note}`);
    },
  );

  const receiptForm = {
    type: 'object',
    properties: {
      photo: { type: 'string', format: 'uri', title: 'Receipt photo', description: 'A photo or scan of the receipt.', 'x-mcp-file': receiptLimits },
      merchant: { type: 'string', title: 'Merchant', description: 'Where you bought it.' },
      total: { type: 'number', title: 'Total', description: 'The amount paid.', minimum: 0 },
    },
    required: ['photo'],
  };

  server.registerTool(
    'receipt_from_photo',
    {
      title: 'Record a receipt from a photo',
      description: 'Asks you for a photo of a receipt (and optionally the merchant and total), then records it.',
      inputSchema: schema({
        type: 'object',
        properties: { category: { type: 'string', title: 'Category', enum: ['travel', 'meals', 'office', 'other'], default: 'other' } },
      }),
    },
    async (args, ctx) => {
      const category = typeof (args as Record<string, unknown>).category === 'string' ? (args as Record<string, unknown>).category : 'other';
      const record = (content: Record<string, unknown>): CallToolResult | string => {
        const photo = receive('photo', content.photo, receiptLimits);
        if (typeof photo === 'string') return photo;
        const size = imageSize(photo.bytes);
        const merchant = typeof content.merchant === 'string' && content.merchant ? content.merchant : 'unknown merchant';
        const total = typeof content.total === 'number' ? content.total.toFixed(2) : 'no total given';
        return text(
          `Recorded a receipt from ${merchant} (${category}): ${total}.\n` +
            `Photo: ${photo.declared.mediaType}, ${photo.bytes.length} bytes${size ? `, ${size.width} × ${size.height}` : ''}, sha256 ${sha256(photo.bytes).slice(0, 12)}…`,
        );
      };
      const message = 'Please choose a photo of the receipt.';
      if (era === 'modern') {
        const responses = ctx.mcpReq.inputResponses;
        const response = responses?.receipt as { action?: string } | undefined;
        if (response && response.action !== 'accept') return text(`No receipt recorded (you chose ${response.action ?? 'cancel'}).`);
        const content = acceptedContent(responses, 'receipt');
        if (content) {
          const outcome = record(content);
          if (typeof outcome !== 'string') return outcome;
          // The user can fix a bad file: ask again, saying why.
          return inputRequired({
            inputRequests: { receipt: inputRequired.elicit({ message: `${outcome} ${message}`, requestedSchema: receiptForm as never }) },
          });
        }
        return inputRequired({ inputRequests: { receipt: inputRequired.elicit({ message, requestedSchema: receiptForm as never }) } });
      }
      let answer;
      try {
        answer = await ctx.mcpReq.elicitInput({ mode: 'form', message, requestedSchema: receiptForm as never });
      } catch (e) {
        return refused(`This tool asks for the photo through a form, and the request failed: ${(e as Error).message}`);
      }
      if (answer.action !== 'accept' || !answer.content) return text(`No receipt recorded (you chose ${answer.action}).`);
      const outcome = record(answer.content);
      return typeof outcome === 'string' ? refused(outcome) : outcome;
    },
  );

  const fileOutputSchema = {
    type: 'object',
    'x-mcp-file-mode': 'output',
    properties: {
      content: { type: 'string', contentEncoding: 'base64', description: 'Inline file content, base64-encoded.' },
      filename: { type: 'string', description: 'Original filename.' },
      mime_type: { type: 'string', description: 'MIME type hint.' },
      size_bytes: { type: 'string', description: 'Size of the file in bytes.' },
    },
    required: ['filename'],
  };

  server.registerTool(
    'export_report',
    {
      title: 'Export a report',
      description: 'Generates a small CSV report and returns it as a file you can save.',
      inputSchema: schema({
        type: 'object',
        properties: {
          title: { type: 'string', title: 'Title', default: 'Weekly report', maxLength: 100 },
          rows: { type: 'integer', title: 'Rows', minimum: 1, maximum: 100, default: 5 },
        },
      }),
      outputSchema: schema({
        type: 'object',
        properties: { report: fileOutputSchema, rows: { type: 'integer' } },
        required: ['report', 'rows'],
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => {
      const a = args as Record<string, unknown>;
      const title = typeof a.title === 'string' && a.title.trim() ? a.title.trim().slice(0, 100) : 'Weekly report';
      const rows = Number.isInteger(a.rows) ? (a.rows as number) : 5;
      if (rows < 1 || rows > 100) return refused(`Argument 'rows' is ${rows}; it must be between 1 and 100.`);
      const lines = ['day,visits,signups'];
      for (let i = 1; i <= rows; i++) lines.push(`${i},${(i * 37) % 101},${(i * 7) % 13}`);
      const bytes = Buffer.from(`# ${title.replace(/[\r\n]/g, ' ')}\n${lines.join('\n')}\n`, 'utf8');
      const filename = `${title.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'report'}.csv`;
      const base64 = bytes.toString('base64');
      return {
        content: [
          { type: 'text', text: `Generated ${filename} (${rows} rows, ${bytes.length} bytes).` },
          { type: 'resource', resource: { uri: `demo://reports/${encodeURIComponent(filename)}`, mimeType: 'text/csv', blob: base64 } },
        ],
        structuredContent: {
          report: { content: base64, filename, mime_type: 'text/csv', size_bytes: String(bytes.length) },
          rows,
        },
      };
    },
  );

  server.registerTool(
    'slow_count',
    {
      title: 'Count slowly',
      description: 'Counts up for a few seconds, reporting progress five times a second. Cancel it to see cancellation work.',
      inputSchema: schema({
        type: 'object',
        properties: { seconds: { type: 'number', title: 'Seconds', minimum: 1, maximum: 60, default: 5 } },
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args, ctx) => {
      const raw = (args as Record<string, unknown>).seconds;
      const seconds = typeof raw === 'number' ? raw : 5;
      if (!(seconds >= 1 && seconds <= 60)) return refused(`Argument 'seconds' is ${seconds}; it must be between 1 and 60.`);
      const steps = Math.round(seconds * 5);
      const token = ctx.mcpReq._meta?.progressToken;
      for (let step = 1; step <= steps; step++) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, 200);
          ctx.mcpReq.signal.addEventListener(
            'abort',
            () => {
              clearTimeout(timer);
              reject(new Error('cancelled'));
            },
            { once: true },
          );
        }).catch(() => undefined);
        if (ctx.mcpReq.signal.aborted) return text(`Cancelled at ${step - 1} of ${steps}.`);
        if (token !== undefined) {
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken: token, progress: step, total: steps, message: `Counted ${step} of ${steps}` },
          });
        }
      }
      return text(`Counted to ${steps} in ${seconds} s.`);
    },
  );
}

function createDemoServer(ctx: McpRequestContext): McpServer {
  const server = new McpServer(
    { name: 'mcp-host-demo', title: 'MCP Host demo', version: '0.1.0' },
    {
      capabilities: { tools: {}, prompts: {}, resources: {} },
      instructions: 'Tools that take files, ask for a photo, return a generated file and report progress.',
    },
  );
  registerTools(server, ctx.era);
  registerGuide(server);
  return server;
}

const GUIDE = [
  '# The MCP Host demo server',
  '',
  '- describe_file: any file up to 5 MiB; its type, size, SHA-256 and, for images, dimensions.',
  '- compare_images: two to four images.',
  '- attach_note: a file up to 64 KiB, its name and a note.',
  '- receipt_from_photo: asks for a photo while it runs.',
  '- export_report: returns a generated file to save.',
  '- slow_count: counts slowly, with progress; cancel it.',
].join('\n');

/** A resource and a prompt, so hosts have something to list and read besides tools. */
function registerGuide(server: McpServer): void {
  server.registerResource('guide', 'demo://guide', { title: 'Demo guide', mimeType: 'text/markdown' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/markdown', text: GUIDE }],
  }));
  server.registerPrompt(
    'try-the-demo',
    {
      title: 'Try the demo',
      description: 'Suggests a first tool to run on one of the sample files.',
      argsSchema: schema({
        type: 'object',
        properties: { file: { type: 'string', description: 'A sample file of the demo workspace: photo.png, report.pdf or notes.txt' } },
        required: ['file'],
      }),
    },
    (args) => {
      const file = String((args as { file?: unknown }).file ?? '');
      return {
        messages: [
          { role: 'user' as const, content: { type: 'text' as const, text: `What is ${file}?` } },
          { role: 'assistant' as const, content: { type: 'text' as const, text: `Run "Describe a file" and choose ${file} with From workspace….` } },
        ],
      };
    },
  );
}

function main(): void {
  const httpAt = process.argv.indexOf('--http');
  if (httpAt < 0) {
    serveStdio(createDemoServer, { onerror: (e) => process.stderr.write(`demo server: ${e.message}\n`) });
    return;
  }
  const port = Number(process.argv[httpAt + 1] ?? 3001);
  // Base64 makes files a third larger: allow 5 MiB files plus the envelope.
  const handler = createMcpHandler(createDemoServer, { maxRequestBodySize: 8 * MiB });
  const httpServer = createServer(async (req, res) => {
    if (!req.url?.startsWith('/mcp')) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const request = new Request(`http://127.0.0.1:${port}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
    });
    const response = await handler.fetch(request);
    response.headers.forEach((value, key) => res.setHeader(key, value));
    res.writeHead(response.status);
    if (!response.body) {
      res.end();
      return;
    }
    const reader = response.body.getReader();
    req.on('close', () => void reader.cancel().catch(() => undefined));
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  });
  httpServer.listen(port, '127.0.0.1', () => {
    const address = httpServer.address();
    const actual = typeof address === 'object' && address ? address.port : port;
    process.stderr.write(`MCP Host demo server listening on http://127.0.0.1:${actual}/mcp\n`);
  });
}

main();
