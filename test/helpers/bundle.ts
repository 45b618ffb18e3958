// Bundles a TypeScript server (a fixture, the demo server) into one CommonJS file, the way the build ships
// the demo server: tests that spawn many processes start a bundle instead of paying for tsx each time.
import { build } from 'esbuild';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

export async function bundleServer(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [join(root, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
    logLevel: 'silent',
    absWorkingDir: root,
  });
}
