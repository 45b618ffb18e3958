// Skills served over MCP (SEP-2640) in the CLI:
//   skills TARGET                  the server's skills (skills/list): name (or path, when names collide), description, files
//   skill get NAME|PATH|URI        load a skill: its SKILL.md, verified against the listing (or skills/get for a URI)
//   skill read NAME FILE           one file the skill lists, verified
//   skill ls NAME [DIR]            a directory of the skill (resources/directory/read; the listing's files otherwise)
// Listing reads no file; a file is read only when asked for.
import { formatBytes } from '../shared/format';
import {
  displayName,
  findSkill,
  getSkill,
  isDirectory,
  listSkills,
  loadSkill,
  readSkillDirectory,
  readSkillFile,
  skillRootOf,
  skillsSupport,
  type SkillContent,
  type SkillEntry,
} from '../core/skills';
import { openConnection, withConnection } from './connect';
import { EXIT } from './errors';
import { usageError, type ParsedArgs } from './options';
import { resolveTarget, type CliIo } from './target';
import { terminalLine, terminalText } from './terminal';

export const SKILL_ACTIONS = ['get', 'read', 'ls'] as const;

function fileSummary(entry: SkillEntry): string {
  if (entry.resources === 'dynamic') return 'dynamic files';
  const total = entry.resources.reduce((n, f) => n + f.size, 0);
  return `${entry.resources.length} file${entry.resources.length === 1 ? '' : 's'}, ${formatBytes(total)}`;
}

/** `skills` and `skill get|read|ls`. */
export async function skillsCommand(a: ParsedArgs, io: CliIo): Promise<number> {
  const listing = a.command === 'skills';
  const [action, wanted, file, ...extra] = listing ? [undefined, undefined, undefined, ...a.positional] : a.positional;
  if (listing && extra.length) throw usageError(`unexpected argument ${extra[0]}`);
  if (!listing) {
    if (!SKILL_ACTIONS.includes(action as (typeof SKILL_ACTIONS)[number])) throw usageError("skill needs get, read or ls, then the skill's name, path or URI");
    if (!wanted) throw usageError(`skill ${action} needs the skill's name, path or SKILL.md URI`);
    if (action === 'read' && !file) throw usageError('skill read needs the file, relative to the skill (references/GUIDE.md) or its URI');
    if (action === 'get' && file) throw usageError(`unexpected argument ${file}`);
    if (extra.length) throw usageError(`unexpected argument ${extra[0]}`);
  }
  const cli = await openConnection(await resolveTarget(a, io), a, io);
  const { connection } = cli;
  const out: CliIo = { ...io, stdout: cli.stdout, stderr: cli.stderr };
  return withConnection(cli, async () => {
    const opts = { signal: io.interrupt, timeoutMs: a.timeoutMs };
    if (!skillsSupport(connection)) {
      out.stderr.write(`mcp-host: "${terminalText(connection.name)}" does not serve skills (no io.modelcontextprotocol/skills extension)\n`);
      if (listing && a.json) out.stdout.write('[]\n');
      return listing ? EXIT.ok : EXIT.toolError;
    }
    if (listing) {
      const { skills, cut } = await listSkills(connection, opts);
      if (a.json) out.stdout.write(`${JSON.stringify(skills, null, 2)}\n`);
      else {
        for (const s of skills) {
          out.stdout.write(`${terminalLine(displayName(s, skills), 120)}\t${terminalLine(s.description, 200)}\t(${fileSummary(s)})\n`);
          if (s.problem) out.stdout.write(`    ${terminalLine(s.problem, 300)}\n`);
        }
        if (skills.length === 0) out.stderr.write('mcp-host: the server listed no skills (a skill may still be read by its URI)\n');
      }
      if (cut) out.stderr.write(`mcp-host: ${cut}\n`);
      return EXIT.ok;
    }
    // The listing's entry; a URI the listing leaves out is asked of the server (skills/get).
    const { skills } = await listSkills(connection, opts);
    const listed = wanted!.includes('://') ? skills.find((s) => s.uri === wanted) : undefined;
    const entry = listed ?? (wanted!.includes('://') ? await getSkill(connection, wanted!, opts) : findSkill(skills, wanted!));
    if (action === 'ls') {
      const dir = file === undefined ? skillRootOf(entry) : file.includes('://') ? file : `${skillRootOf(entry)}/${file.replace(/^\.?\/|\/$/g, '')}`;
      if (skillsSupport(connection)!.directoryRead) {
        const { resources, cut } = await readSkillDirectory(connection, dir, opts);
        if (a.json) out.stdout.write(`${JSON.stringify(resources, null, 2)}\n`);
        else for (const r of resources) out.stdout.write(`${terminalLine(r.uri, 400)}${isDirectory(r) ? '/' : ''}\n`);
        if (cut) out.stderr.write(`mcp-host: ${cut}\n`);
      } else {
        if (entry.resources === 'dynamic') throw usageError(`"${connection.name}" reads no directories and lists no files for skill ${entry.path}`);
        const files = entry.resources.filter((f) => f.uri.startsWith(`${dir}/`));
        if (a.json) out.stdout.write(`${JSON.stringify(files, null, 2)}\n`);
        else for (const f of files) out.stdout.write(`${terminalLine(f.uri, 400)}\t${formatBytes(f.size)}\n`);
      }
      return EXIT.ok;
    }
    const content = action === 'get' ? await loadSkill(connection, entry, opts) : await readSkillFile(connection, entry, file!, opts);
    printContent(content, entry, connection.name, a.json === true, out);
    return EXIT.ok;
  });
}

function printContent(content: SkillContent, entry: SkillEntry, server: string, json: boolean, io: CliIo): void {
  if (json) {
    io.stdout.write(
      `${JSON.stringify(
        {
          server,
          skill: entry.uri,
          uri: content.uri,
          mimeType: content.mimeType,
          verified: content.verified,
          size: content.bytes.length,
          ...(content.text !== undefined ? { text: content.text } : { base64: content.bytes.toString('base64') }),
        },
        null,
        2,
      )}\n`,
    );
    return;
  }
  io.stderr.write(
    `mcp-host: ${terminalText(content.uri)} from "${terminalText(server)}"${content.verified ? ' (size and sha-256 verified)' : ' (a dynamic skill: nothing to verify against)'}\n`,
  );
  if (content.text === undefined) {
    io.stdout.write(`[${terminalText(content.uri)}${content.mimeType ? ` (${terminalText(content.mimeType)})` : ''}, ${formatBytes(content.bytes.length)}]\n`);
    return;
  }
  io.stdout.write(content.text.endsWith('\n') ? terminalText(content.text) : `${terminalText(content.text)}\n`);
}
