// `npm run package`: a production build in a staging folder, then `vsce package` there, so the
// .vsix never picks up a development build or anything else lying in this folder.
//   npm run package [-- --out <file.vsix>]     (default: mcp-host-<version>.vsix here)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inflateRawSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const staging = join(root, '.cache/vsix-staging');
const BUILT_MEDIA = /^(webview\.js|codicons)$|\.map$/;

/**
 * The publisher's to fill in before listing the extension: the public git repository its source is published
 * at (here, or MCP_HOST_REPOSITORY). The project serves no address of its own and the manifest claims none.
 * With one, the packaged manifest gets its repository, bugs and homepage links and vsce points README's
 * relative links and images there; without one, the package names no address and README's links stay relative.
 */
const PUBLISHED_REPOSITORY = process.env.MCP_HOST_REPOSITORY || undefined;

/** The manifest as packaged: the publisher's repository links added when there is one. */
function stagedManifest(manifest) {
  if (!PUBLISHED_REPOSITORY) return manifest;
  const web = PUBLISHED_REPOSITORY.replace(/\.git$/, '');
  return { ...manifest, repository: { type: 'git', url: PUBLISHED_REPOSITORY }, bugs: { url: `${web}/issues` }, homepage: `${web}#readme` };
}

/** The entries of a zip archive's central directory: name, compression method, sizes, local header offset. */
function centralDirectory(zip, file) {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error(`${file} is not a zip archive`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    entries.push({
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      localHeader: zip.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The names of the files in a zip archive, read from its central directory. */
export function zipEntries(file) {
  return centralDirectory(readFileSync(file), file).map((e) => e.name);
}

/** The bytes of one file in a zip archive (stored or deflated). */
export function zipEntry(file, name) {
  const zip = readFileSync(file);
  const entry = centralDirectory(zip, file).find((e) => e.name === name);
  if (!entry) throw new Error(`${name} is not in ${file}`);
  const start = entry.localHeader + 30 + zip.readUInt16LE(entry.localHeader + 26) + zip.readUInt16LE(entry.localHeader + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return Buffer.from(data);
  if (entry.method === 8) return inflateRawSync(data);
  throw new Error(`${name} in ${file} uses compression method ${entry.method}`);
}

export function packageVsix(out) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const target = resolve(out ?? join(root, `${manifest.name}-${manifest.version}.vsix`));
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(join(staging, 'media'), { recursive: true });
  for (const f of ['README.md', 'CHANGELOG.md', 'LICENSE', '.vscodeignore']) cpSync(join(root, f), join(staging, f));
  // the saved-calls format, which package.json's jsonValidation points at
  cpSync(join(root, 'schemas'), join(staging, 'schemas'), { recursive: true });
  writeFileSync(join(staging, 'package.json'), `${JSON.stringify(stagedManifest(manifest), null, 2)}\n`);
  for (const f of readdirSync(join(root, 'media'))) {
    if (!BUILT_MEDIA.test(f)) cpSync(join(root, 'media', f), join(staging, 'media', f), { recursive: true });
  }
  const run = (cmd, args, cwd) => {
    const r = spawnSync(cmd, args, { cwd, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status})`);
  };
  // vsce's warnings (a missing field, a README image it cannot resolve, too many files…) fail the package
  const vsceWithoutWarnings = (args, cwd) => {
    const r = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    process.stdout.write(r.stdout);
    process.stderr.write(r.stderr);
    if (r.status !== 0) throw new Error(`vsce package failed (exit ${r.status})`);
    const warnings = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => /\bWARNING\b/i.test(l));
    if (warnings.length) throw new Error(`vsce package warned:\n${warnings.join('\n')}`);
  };
  run(process.execPath, [join(root, 'scripts/build.mjs'), '--production', '--outdir', staging], root);
  rmSync(join(staging, 'dist/demo-server.js'), { force: true });
  const vsce = join(root, 'node_modules/@vscode/vsce/vsce');
  const withoutRepository = PUBLISHED_REPOSITORY ? [] : ['--allow-missing-repository', '--no-rewrite-relative-links'];
  vsceWithoutWarnings([vsce, 'package', '--no-dependencies', ...withoutRepository, '--out', target], staging);
  console.log(`${target}: ${(statSync(target).size / 1024).toFixed(0)} KB`);
  return target;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outAt = process.argv.indexOf('--out');
  try {
    packageVsix(outAt >= 0 ? process.argv[outAt + 1] : undefined);
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
