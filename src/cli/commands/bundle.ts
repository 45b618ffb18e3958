// `mcp-host bundle install FILE`: an MCP Bundle checked, unpacked into the data folder, and an entry written that
// runs it. `registry install` of a server whose package is a bundle comes here too, after the download.
import { resolve } from 'node:path';
import { cliBundlesFolder, installBundle, downloadBundle, openBundleFile, planBundle, type OpenedBundle } from '../../core/bundles';
import { describeEntry, type RegistryEntry, type RegistryPackage } from '../../core/registry';
import { configToWrite, writeServer } from '../configWrite';
import { usageError, type ParsedArgs } from '../options';
import type { CliIo } from '../target';
import { terminalLine, terminalText } from '../terminal';

interface BundleInstallArgs {
  config?: string;
  as?: string;
  args: [string, string][];
  json: boolean;
}

/** Installs an opened bundle: values checked first, then unpacked into the data folder, then the entry written. */
async function install(opened: OpenedBundle, a: BundleInstallArgs, io: CliIo, origin: string): Promise<number> {
  const plan = planBundle(opened.manifest);
  const values: Record<string, unknown> = {};
  for (const [k, v] of a.args) {
    const field = plan.fields.find((f) => f.key === k);
    if (!field) throw usageError(`--arg ${k}: not a setting of ${opened.manifest.name} (it has ${plan.fields.map((f) => f.key).join(', ') || 'none'})`);
    if (field.option.multiple) values[k] = [...((values[k] as string[] | undefined) ?? []), v];
    else values[k] = v;
  }
  // The values are checked against a placeholder folder before anything is unpacked.
  plan.build(values, '/');
  const folder = await installBundle(opened, cliBundlesFolder(io.env));
  const built = plan.build(values, folder);
  const file = configToWrite(a.config, io);
  const key = await writeServer(file, plan.suggestedName, a.as, built.entry, built.inputs);
  const m = opened.manifest;
  if (a.json) {
    io.stdout.write(
      `${JSON.stringify({ name: m.name, version: m.version, sha256: opened.sha256, folder, key, config: file, entry: built.entry, inputs: built.inputs }, null, 2)}\n`,
    );
    return 0;
  }
  io.stdout.write(`${terminalLine(`Installed the bundle ${m.display_name ?? m.name} ${m.version} (${origin}) into ${folder}`)}\n`);
  io.stdout.write(`${terminalLine(`as "${key}" in ${file}:`)}\n  ${terminalText(describeEntry(built.entry))}\n`);
  for (const input of built.inputs) io.stdout.write(`  \${input:${terminalLine(input.id)}} is asked at the first start (a secret)\n`);
  return 0;
}

export async function bundleCommand(p: ParsedArgs, io: CliIo): Promise<number> {
  const [action, file, ...rest] = p.positional;
  if (action !== 'install') throw usageError(`bundle takes install FILE${action ? `, not "${action}"` : ''}`);
  if (!file || rest.length) throw usageError('bundle install takes one FILE, a .mcpb');
  const path = resolve(io.cwd, file);
  const opened = await openBundleFile(path, p.sha256 !== undefined ? { sha256: p.sha256 } : {});
  return install(opened, { config: p.config, as: p.as, args: p.arg ?? [], json: p.json === true }, io, `sha-256 ${opened.sha256}`);
}

/** `registry install` of an MCP Bundle: downloaded, its `fileSha256` checked, then installed as above. */
export async function installBundleFromRegistry(
  entry: RegistryEntry,
  pkg: RegistryPackage,
  a: BundleInstallArgs & { env: [string, string][] },
  io: CliIo,
): Promise<number> {
  if (a.env.length) throw usageError(`--env: an MCP Bundle takes its settings with --arg K=V (its user_config)`);
  const opened = await downloadBundle(pkg.identifier, pkg.fileSha256!, io.interrupt ? { signal: io.interrupt } : {});
  return install(opened, a, io, `${entry.server.name} ${entry.server.version} from the registry, sha-256 checked`);
}
