// An MCP Bundle is a zip archive. It is read here from its central directory, every entry checked against the
// limits before a single byte is inflated or written: the count of entries, the sizes they declare, names that
// stay inside the folder, and only regular files and folders (no links, devices or encrypted entries). Then each
// entry is inflated with its declared size as the ceiling and its CRC checked, all in memory; only an archive that
// passed every check is written, into a new temporary folder.
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, inflateRawSync } from 'node:zlib';
import { formatBytes } from '../files/limits';
import { MiB } from '../io/limits';
import { HostError } from '../errors';

export const BUNDLE_LIMITS = {
  /** The .mcpb file itself. */
  maxArchiveBytes: 256 * MiB,
  /** All its files unpacked, as their entries declare them (checked before inflating). */
  maxUnpackedBytes: 1024 * MiB,
  /** Entries (files and folders). */
  maxEntries: 20_000,
  /** One path inside the bundle. */
  maxPathLength: 1024,
};
export type BundleLimits = typeof BUNDLE_LIMITS;

export class BundleError extends HostError {
  static override readonly brand: string = 'BundleError';
}

export interface ArchiveEntry {
  /** The path inside the bundle, `/`-separated, checked (no `..`, not absolute). */
  path: string;
  directory: boolean;
  /** The Unix execute bit of a file packed on Unix. */
  executable: boolean;
  size: number;
  compressedSize: number;
  method: number;
  crc: number;
  localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

/** The sha-256 of the bytes, hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Throws unless the bytes have the sha-256 the registry (or the user) gave. */
export function checkSha256(bytes: Uint8Array, expected: string, what: string): void {
  const want = expected.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(want)) throw new BundleError(`the sha-256 given for ${what} is not 64 hex digits: "${expected.slice(0, 80)}"`);
  const got = sha256Hex(bytes);
  if (got !== want) throw new BundleError(`${what} has the sha-256 ${got}, not the expected ${want}; nothing was unpacked`);
}

/** A path of the archive checked: relative, `/`-separated, no `.`/`..` parts, no drive, no control characters. */
function checkedPath(raw: string, limits: BundleLimits): string {
  if (raw.length === 0) throw new BundleError('an entry of the bundle has an empty name');
  if (raw.length > limits.maxPathLength) throw new BundleError(`an entry of the bundle has a name over ${limits.maxPathLength} characters, the limit`);
  const shown = JSON.stringify(raw.slice(0, 200));
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) throw new BundleError(`the bundle's entry ${shown} has a backslash or a control character in its name`);
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw))
    throw new BundleError(`the bundle's entry ${shown} is an absolute path; a bundle's paths must stay inside its folder`);
  const parts = raw.replace(/\/$/, '').split('/');
  if (parts.some((p) => p === '..')) throw new BundleError(`the bundle's entry ${shown} leaves the bundle's folder ("..")`);
  if (parts.some((p) => p === '' || p === '.')) throw new BundleError(`the bundle's entry ${shown} has an empty or "." part`);
  return raw;
}

/** The entries of the archive, every one checked against the limits; nothing is inflated yet. */
export function readCentralDirectory(zip: Buffer, limits: BundleLimits = BUNDLE_LIMITS): ArchiveEntry[] {
  if (zip.length > limits.maxArchiveBytes)
    throw new BundleError(`the bundle is ${formatBytes(zip.length)}, over ${formatBytes(limits.maxArchiveBytes)}, the limit`);
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new BundleError('the bundle is not a zip archive (no end of central directory)');
  const total = zip.readUInt16LE(eocd + 10);
  const cdSize = zip.readUInt32LE(eocd + 12);
  const cdOffset = zip.readUInt32LE(eocd + 16);
  if (total === 0xffff || cdOffset === 0xffffffff || cdSize === 0xffffffff)
    throw new BundleError('the bundle is a ZIP64 archive (over 65,535 entries or 4 GiB), over the limits');
  if (total > limits.maxEntries)
    throw new BundleError(`the bundle has ${total.toLocaleString('en-US')} entries, over ${limits.maxEntries.toLocaleString('en-US')}, the limit`);
  if (cdOffset + cdSize > eocd) throw new BundleError("the bundle's central directory lies outside the archive");
  const entries: ArchiveEntry[] = [];
  const seen = new Set<string>();
  let unpacked = 0;
  let at = cdOffset;
  for (let n = 0; n < total; n++) {
    if (at + 46 > eocd || zip.readUInt32LE(at) !== CENTRAL) throw new BundleError("the bundle's central directory is damaged");
    const madeBy = zip.readUInt16LE(at + 4) >> 8;
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const external = zip.readUInt32LE(at + 38);
    const localHeaderOffset = zip.readUInt32LE(at + 42);
    if (next > eocd) throw new BundleError("the bundle's central directory is damaged");
    const path = checkedPath(zip.toString('utf8', at + 46, at + 46 + nameLength), limits);
    at = next;
    const shown = JSON.stringify(path.slice(0, 200));
    if (size === 0xffffffff || compressedSize === 0xffffffff || localHeaderOffset === 0xffffffff)
      throw new BundleError(`the bundle's entry ${shown} is a ZIP64 entry (4 GiB or more), over the limits`);
    const mode = madeBy === 3 ? external >>> 16 : 0;
    const type = mode & S_IFMT;
    if (type === S_IFLNK) throw new BundleError(`the bundle's entry ${shown} is a symbolic link; a bundle may hold only files and folders`);
    if (type !== 0 && type !== S_IFREG && type !== S_IFDIR)
      throw new BundleError(`the bundle's entry ${shown} is not a file or folder (mode ${type.toString(8)})`);
    if (flags & 1) throw new BundleError(`the bundle's entry ${shown} is encrypted`);
    const directory = path.endsWith('/') || type === S_IFDIR;
    if (!directory && method !== 0 && method !== 8)
      throw new BundleError(`the bundle's entry ${shown} uses the compression method ${method}; only stored and deflated entries are read`);
    const key = path.replace(/\/$/, '').toLowerCase();
    if (seen.has(key)) throw new BundleError(`the bundle has the entry ${shown} twice (names are compared ignoring case)`);
    seen.add(key);
    unpacked += size;
    if (unpacked > limits.maxUnpackedBytes)
      throw new BundleError(`the bundle declares more than ${formatBytes(limits.maxUnpackedBytes)} unpacked, the limit; nothing was unpacked`);
    entries.push({ path: path.replace(/\/$/, ''), directory, executable: (mode & 0o111) !== 0, size, compressedSize, method, crc, localHeaderOffset });
  }
  // A file whose name is also a folder of another entry could not be unpacked: refused before anything is written.
  const files = new Set(entries.filter((e) => !e.directory).map((e) => e.path.toLowerCase()));
  for (const e of entries) {
    const parts = e.path.toLowerCase().split('/');
    for (let i = 1; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('/');
      if (files.has(parent)) throw new BundleError(`the bundle has "${parent.slice(0, 200)}" both as a file and as a folder`);
    }
  }
  return entries;
}

/** One file's bytes: inflated with its declared size as the ceiling, its size and CRC checked. */
export function entryBytes(zip: Buffer, entry: ArchiveEntry): Buffer {
  const at = entry.localHeaderOffset;
  const shown = JSON.stringify(entry.path.slice(0, 200));
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL) throw new BundleError(`the bundle's entry ${shown} has no local header where the directory says`);
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  const end = start + entry.compressedSize;
  if (end > zip.length) throw new BundleError(`the bundle's entry ${shown} runs past the end of the archive`);
  const raw = zip.subarray(start, end);
  let data: Buffer;
  if (entry.method === 0) data = Buffer.from(raw);
  else {
    try {
      data = inflateRawSync(raw, { maxOutputLength: Math.max(1, entry.size) });
    } catch (e) {
      throw new BundleError(`the bundle's entry ${shown} does not inflate to its declared ${formatBytes(entry.size)}: ${(e as Error).message}`);
    }
  }
  if (data.length !== entry.size)
    throw new BundleError(`the bundle's entry ${shown} is ${formatBytes(data.length)}, not the ${formatBytes(entry.size)} it declares`);
  if (crc32(data) >>> 0 !== entry.crc >>> 0) throw new BundleError(`the bundle's entry ${shown} fails its CRC check (damaged)`);
  return data;
}

/** Every file of the archive in memory, checked; the archive is refused whole on the first problem. */
export function readArchive(zip: Buffer, limits: BundleLimits = BUNDLE_LIMITS): Map<string, { entry: ArchiveEntry; data: Buffer }> {
  const files = new Map<string, { entry: ArchiveEntry; data: Buffer }>();
  for (const entry of readCentralDirectory(zip, limits)) {
    if (!entry.directory) files.set(entry.path, { entry, data: entryBytes(zip, entry) });
  }
  return files;
}

/** Writes checked files into a new temporary folder (created with mode 0700); returns its path. */
export async function writeToTemporaryFolder(files: Map<string, { entry: ArchiveEntry; data: Buffer }>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-host-bundle-'));
  try {
    for (const [path, { entry, data }] of files) {
      const target = join(dir, ...path.split('/'));
      await mkdir(join(target, '..'), { recursive: true });
      // `wx`: a path is never written twice, and never through something that is already there.
      await writeFile(target, data, { flag: 'wx', mode: entry.executable ? 0o755 : 0o644 });
      if (entry.executable) await chmod(target, 0o755);
    }
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    throw new BundleError(`the bundle could not be unpacked: ${(e as Error).message}`);
  }
  return dir;
}
