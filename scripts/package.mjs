// `npm run package`: a production build in a staging folder, then `vsce package` there, so the
// .vsix never picks up a development build or anything else lying in this folder.
//   npm run package [-- --out <file.vsix>]     (default: mcp-host-<version>.vsix here)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const staging = join(root, '.cache/vsix-staging');
const BUILT_MEDIA = /^(webview\.js|codicons)$|\.map$/;

/** The names of the files in a zip archive, read from its central directory. */
export function zipEntries(file) {
  const zip = readFileSync(file);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error(`${file} is not a zip archive`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names = [];
  for (let i = 0; i < count; i++) {
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

export function packageVsix(out) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const target = resolve(out ?? join(root, `${manifest.name}-${manifest.version}.vsix`));
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(join(staging, 'media'), { recursive: true });
  for (const f of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', '.vscodeignore']) cpSync(join(root, f), join(staging, f));
  for (const f of readdirSync(join(root, 'media'))) {
    if (!BUILT_MEDIA.test(f)) cpSync(join(root, 'media', f), join(staging, 'media', f), { recursive: true });
  }
  const run = (cmd, args, cwd) => {
    const r = spawnSync(cmd, args, { cwd, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status})`);
  };
  run(process.execPath, [join(root, 'scripts/build.mjs'), '--production', '--outdir', staging], root);
  rmSync(join(staging, 'dist/demo-server.js'), { force: true });
  const vsce = join(root, 'node_modules/@vscode/vsce/vsce');
  run(process.execPath, [vsce, 'package', '--no-dependencies', '--out', target], staging);
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
