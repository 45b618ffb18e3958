// Bundles the extension, the CLI (both CJS for Node 20) and the webview app (browser IIFE) with esbuild.
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
// --outdir DIR writes dist/ and media/ under DIR instead of this folder (packaging, benchmarks)
const outdirAt = process.argv.indexOf('--outdir');
const outRoot = outdirAt >= 0 ? process.argv[outdirAt + 1] : root;
// --only NAME[,NAME…] builds dist/NAME.js alone (the CLI package needs `cli` and `sandbox`)
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1].split(',') : undefined;

const common = { bundle: true, minify: production, sourcemap: !production, logLevel: 'info', absWorkingDir: root };
// 'module' first: jsonc-parser's UMD main cannot be bundled (it requires its files dynamically).
const node = { ...common, platform: 'node', format: 'cjs', target: 'node20', mainFields: ['module', 'main'] };
// The extension loads its MCP connection (the MCP SDK and zod, most of the code) from a bundle of its
// own on the first server start, so activation parses only what it uses. `core/connection/bundle` is
// required on demand in the extension (src/extension/activation/connectionBundle.ts); it becomes `require('./connection.js')`.
const connectionOnDemand = {
  name: 'connection-on-demand',
  setup(build) {
    build.onResolve({ filter: /\/connection\/bundle(\.js)?$/ }, (args) =>
      args.kind === 'require-call' ? { path: './connection.js', external: true } : undefined,
    );
  },
};
// The large libraries needed only once a form, a schema or a file is at hand (src/core/libraries.ts, required on
// first use) are a bundle of their own too, shared by the extension and its connection bundle.
const librariesOnDemand = {
  name: 'libraries-on-demand',
  setup(build) {
    build.onResolve({ filter: /\/libraries$/ }, (args) =>
      args.kind === 'require-call' && args.importer.includes(`${join('src', 'core')}`) ? { path: './libraries.js', external: true } : undefined,
    );
  },
};
// What the MCP view's History and Saved Calls rows do, with the saved-calls format and its matcher, is a bundle of
// its own too (src/extension/replay/replayCommands.ts, required on first use).
const replayOnDemand = {
  name: 'replay-on-demand',
  setup(build) {
    build.onResolve({ filter: /\/replayCommands$/ }, (args) => (args.kind === 'require-call' ? { path: './replay.js', external: true } : undefined));
  },
};
// Bringing servers in and out (the registry browser, MCP Bundles, other apps' configurations) is a bundle of its own
// too (src/extension/carry/carryCommands.ts, required on first use by carryOnDemand.ts).
const carryOnDemand = {
  name: 'carry-on-demand',
  setup(build) {
    build.onResolve({ filter: /\/carryCommands$/ }, (args) => (args.kind === 'require-call' ? { path: './carry.js', external: true } : undefined));
  },
};
// esbuild wraps an external CommonJS module in a copy of its exports (`__toESM`) in every module that imports it;
// for `vscode`, an object of hundreds of members imported by most modules of the extension, those copies were
// a large part of activation. Every module takes it from one ES module of the bundle that re-exports it instead.
const vscodeImportedOnce = {
  name: 'vscode-imported-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-imported-once' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-imported-once' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-imported-once' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
  },
};
// The connection and app bridge bundles carry zod for the MCP SDK; zod's `locales` namespace (error messages in ~50
// languages, about 250 KB minified) is kept whole by the SDK's `import * as z`. Only English is used (zod's
// default, set by zod itself from locales/en.js): the namespace is cut down to it.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};
// The MCP SDK's Node shims make a copy of Ajv that the SDK carries (~150 KB minified) every Client's default JSON Schema
// validator; the host gives each Client its own (Ajv from dist/libraries.js), so the shims are the host's
// (src/core/connection/sdkShims.ts), which bring no second Ajv.
const sdkShimsOfTheHost = {
  name: 'sdk-shims-of-the-host',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/client\/_shims$/ }, () => ({ path: join(root, 'src/core/connection/sdkShims.ts') }));
  },
};
// mime-types reads mime-db's `extensions` and `source` (which type an extension maps to) and `charset`; the table
// of types with none of these, and every type's `compressible`, are more than half of its bytes and never read.
const mimeDbAsRead = {
  name: 'mime-db-as-read',
  setup(build) {
    build.onLoad({ filter: /[\\/]mime-db[\\/]db\.json$/ }, (args) => {
      const read = {};
      for (const [type, { source, charset, extensions }] of Object.entries(JSON.parse(readFileSync(args.path, 'utf8')))) {
        if (extensions || charset) read[type] = { source, charset, extensions };
      }
      return { contents: JSON.stringify(read), loader: 'json' };
    });
  },
};
// dist/replay.js and dist/carry.js are loaded by dist/main.js only, and much of what they use is in it already: the
// JSONC parser, the forms, the file slots, the webview panels. Those modules are taken from main.js (its
// `sharedModules`, required back from the module cache, see src/extension/activation/codeCache.ts) instead of being
// copied into each bundle: one copy shipped, and one instance of each (its state, its classes) in the extension.
const SHARED_WITH_MAIN = [
  'jsonc-parser',
  'src/core/errors',
  'src/core/events',
  'src/core/forms/build',
  'src/core/forms/validate',
  'src/core/forms/values',
  'src/core/files/slots',
  'src/core/files/redact',
  'src/core/io/boundedRead',
  'src/core/io/json',
  'src/core/config/edit',
  'src/core/schemaRefs',
  'src/shared/format',
  'src/extension/panels/webviewHost',
  'src/extension/panels/webviewHtml',
  'src/extension/panels/fileSelections',
  'src/extension/panels/fileFilters',
  'src/extension/panels/formDialog',
  'src/extension/settingDefaults',
];
const sharedPath = (m) => (m.startsWith('src/') ? join(root, m) : m);
// What each shared module exports, as esbuild reads it: main.js hands the values over in plain objects (all are
// functions, classes and constants). Namespace objects (`import * as`) would add a getter per export, each created on
// every activation and kept in the code cache.
const { outputs: sharedOutputs } = (
  await esbuild.build({
    entryPoints: SHARED_WITH_MAIN.map((m, i) => ({ in: sharedPath(m), out: `shared${i}` })),
    outdir: 'shared-exports',
    bundle: true,
    external: ['*'],
    format: 'esm',
    platform: 'node',
    mainFields: node.mainFields,
    write: false,
    metafile: true,
    absWorkingDir: root,
    logLevel: 'error',
  })
).metafile;
const sharedExports = SHARED_WITH_MAIN.map((_, i) => sharedOutputs[`shared-exports/shared${i}.js`].exports);
const mainWithSharedModules = {
  contents: [
    "export * from './extension';",
    ...SHARED_WITH_MAIN.map(
      (m, i) => `import { ${sharedExports[i].map((name, j) => `${name} as s${i}_${j}`).join(', ')} } from ${JSON.stringify(sharedPath(m))};`,
    ),
    `export const sharedModules = { ${SHARED_WITH_MAIN.map((m, i) => `${JSON.stringify(m)}: { ${sharedExports[i].map((name, j) => `${name}: s${i}_${j}`).join(', ')} }`).join(', ')} };`,
  ].join('\n'),
  resolveDir: join(root, 'src/extension/activation'),
  sourcefile: 'src/extension/activation/main.ts',
  loader: 'ts',
};
const takenFromMain = {
  name: 'taken-from-main',
  setup(build) {
    const sharedKey = (args) => {
      if (SHARED_WITH_MAIN.includes(args.path)) return args.path;
      if (!args.path.startsWith('.') || args.importer.includes('node_modules')) return undefined;
      const key = relative(root, resolve(args.resolveDir, args.path))
        .replaceAll('\\', '/')
        .replace(/\.[jt]s$/, '');
      return SHARED_WITH_MAIN.includes(key) ? key : undefined;
    };
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.namespace === 'taken-from-main') return { path: './main.js', external: true };
      if (args.kind !== 'import-statement' && args.kind !== 'require-call') return undefined;
      const key = sharedKey(args);
      return key ? { path: key, namespace: 'taken-from-main' } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'taken-from-main' }, (args) => ({
      contents: `module.exports = require('./main.js').sharedModules[${JSON.stringify(args.path)}];`,
      loader: 'js',
    }));
  },
};
const builds = [
  // The extension's entry: it loads dist/main.js, the extension, with a code cache (src/extension/activation/codeCache.ts).
  { ...node, entryPoints: ['src/extension/activation/start.ts'], outfile: 'dist/extension.js' },
  {
    ...node,
    stdin: mainWithSharedModules,
    outfile: 'dist/main.js',
    plugins: [vscodeImportedOnce, connectionOnDemand, librariesOnDemand, replayOnDemand, carryOnDemand],
  },
  {
    ...node,
    entryPoints: ['src/extension/carry/carryCommands.ts'],
    outfile: 'dist/carry.js',
    plugins: [vscodeImportedOnce, connectionOnDemand, librariesOnDemand, replayOnDemand, carryOnDemand, takenFromMain],
  },
  {
    ...node,
    entryPoints: ['src/extension/replay/replayCommands.ts'],
    outfile: 'dist/replay.js',
    plugins: [vscodeImportedOnce, connectionOnDemand, librariesOnDemand, replayOnDemand, takenFromMain],
  },
  {
    ...node,
    entryPoints: ['src/core/connection/bundle.ts'],
    outfile: 'dist/connection.js',
    plugins: [librariesOnDemand, sdkShimsOfTheHost, zodEnglishOnly],
  },
  { ...node, entryPoints: ['src/core/libraries.ts'], outfile: 'dist/libraries.js', plugins: [mimeDbAsRead] },
  { ...node, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  { ...node, entryPoints: ['examples/demo-server/server.ts'], outfile: 'dist/demo-server.js' },
  // The sandbox service of sandboxed servers (src/core/sandbox/service.ts). The sandbox runtime is an ES module that
  // finds its seccomp helper and its JVM proxy agent next to itself (`import.meta.url`): here, dist/vendor
  // (copySandboxVendor; without the agent there, the runtime asks `npm root -g` where it is at every start).
  {
    ...node,
    entryPoints: ['src/core/sandbox/service.ts'],
    outfile: 'dist/sandbox.js',
    minify: true,
    define: { 'import.meta.url': '__launcherUrl' },
    banner: { js: "const __launcherUrl = require('url').pathToFileURL(__filename).href;" },
  },
  { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: ['src/webview/main.ts'], outfile: 'media/webview.js' },
  // MCP Apps' host bridge: loaded only by panels that may show an app, without delaying their first render. Library
  // code only, so minified in every build: parsing it is most of what an app-rendered question adds to the form.
  {
    ...common,
    minify: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    entryPoints: ['src/webview/apps/bridgeBundle.mts'],
    outfile: 'media/app-bridge.js',
    plugins: [zodEnglishOnly],
  },
]
  .filter((b) => !only || only.some((name) => b.outfile === `dist/${name}.js`))
  .map((b) => ({ ...b, outfile: join(outRoot, b.outfile) }));
if (builds.length !== (only?.length ?? builds.length)) throw new Error(`--only ${only}: no such bundle`);

function copyCodicons() {
  const from = join(root, 'node_modules/@vscode/codicons/dist');
  const to = join(outRoot, 'media/codicons');
  mkdirSync(to, { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) cpSync(join(from, f), join(to, f));
}

function copySandboxVendor() {
  const from = join(root, 'node_modules/@anthropic-ai/sandbox-runtime/vendor');
  for (const arch of ['x64', 'arm64']) {
    const to = join(outRoot, 'dist/vendor/seccomp', arch);
    mkdirSync(to, { recursive: true });
    cpSync(join(from, 'seccomp', arch, 'apply-seccomp'), join(to, 'apply-seccomp'));
  }
  mkdirSync(join(outRoot, 'dist/vendor/java-proxy-agent'), { recursive: true });
  cpSync(join(from, 'java-proxy-agent/srt-proxy-agent.jar'), join(outRoot, 'dist/vendor/java-proxy-agent/srt-proxy-agent.jar'));
}

if (!only) copyCodicons();
if (!only || only.includes('sandbox')) copySandboxVendor();
if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
