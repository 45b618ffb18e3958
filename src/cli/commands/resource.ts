// `mcp-host resource read URI TARGET`: a resource's text, its bytes to a new file, or the files it names.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatBytes } from '../../core/files';
import { writeNewFile } from '../../core/results';
import { openConnection, withConnection } from '../connect';
import { CliError, EXIT } from '../errors';
import { usageError, type ParsedArgs } from '../options';
import { resolveTarget, type CliIo } from '../target';
import { terminalName, terminalText } from '../terminal';
import { downloadLimits, fileOutputLine, resourceFiles, resultOfItems, saveFileOutputs, saveResourceFile } from '../transfer';

export async function resourceCommand(a: ParsedArgs, io: CliIo): Promise<number> {
  const [verb, uri, ...extra] = a.positional;
  if (verb !== 'read') throw usageError(verb ? `unknown resource command "${verb}" (only "read")` : 'resource needs a command: read URI');
  if (!uri) throw usageError('resource read needs the URI of a resource');
  if (extra.length) throw usageError(`unexpected argument ${extra[0]}`);
  if (a.out !== undefined && a.json) throw usageError('--out and --json do not go together');
  const outPath = a.out === undefined ? undefined : resolve(io.cwd, a.out);
  if (outPath && existsSync(outPath)) throw new CliError(`--out: ${outPath} exists; give a new file (nothing is overwritten)`, EXIT.usage);
  const server = await resolveTarget(a, io);
  const cli = await openConnection(server, a, io);
  const { connection, stdout, stderr } = cli;
  return withConnection(cli, async () => {
    const read = await connection.readResource(uri, { signal: io.interrupt, timeoutMs: a.timeoutMs });
    if (a.json) {
      stdout.write(`${JSON.stringify(read, null, 2)}\n`);
      return EXIT.ok;
    }
    const contents = read.contents ?? [];
    // SEP-2631 FileResourceContents: the bytes are downloaded (verified) only for --out or --save-files.
    const files = resourceFiles(read);
    if (outPath) {
      if (contents.length !== 1) throw new CliError(`--out writes one content; ${terminalText(uri)} has ${contents.length} (use --json)`, EXIT.usage);
      if (files.length === 1) {
        await saveResourceFile(files[0]!, connection, outPath, io.interrupt, downloadLimits(a));
        stderr.write(`mcp-host: wrote ${terminalName(files[0]!.name)} to ${outPath}${files[0]!.digest ? ' (sha-256 verified)' : ''}\n`);
        return EXIT.ok;
      }
      const item = contents[0]!;
      const bytes =
        'blob' in item && typeof item.blob === 'string' ? Buffer.from(item.blob, 'base64') : Buffer.from('text' in item ? String(item.text) : '', 'utf8');
      await writeNewFile(outPath, bytes);
      stderr.write(`mcp-host: wrote ${formatBytes(bytes.length)} to ${outPath}\n`);
      return EXIT.ok;
    }
    for (const item of contents) {
      if ('text' in item && typeof item.text === 'string') {
        stdout.write(item.text.endsWith('\n') ? terminalText(item.text) : `${terminalText(item.text)}\n`);
      } else if ('blob' in item && typeof item.blob === 'string') {
        const size = Math.floor((item.blob.length * 3) / 4);
        stdout.write(`${terminalName(`[resource ${item.uri}${item.mimeType ? ` (${item.mimeType})` : ''}, ${formatBytes(size)}]`, 4096)}\n`);
        stderr.write('mcp-host: binary content is not printed; --out FILE writes it\n');
      }
    }
    for (const file of files) stdout.write(`${terminalText(fileOutputLine(file))}\n`);
    if (a.saveFiles !== undefined) {
      for (const path of await saveFileOutputs(resultOfItems(files), {}, connection, resolve(io.cwd, a.saveFiles), io.interrupt, downloadLimits(a))) {
        stderr.write(`saved ${terminalName(path, 4096)}\n`);
      }
    } else if (files.length > 0) stderr.write('mcp-host: files are not downloaded; --save-files DIR or --out FILE saves them (verified)\n');
    return EXIT.ok;
  });
}
