// Skills served over MCP (SEP-2640) against test/fixtures/skills-server.ts, which records every message it
// receives: the extension declared, skills/list read to its end (bounded), skills/get, a skill loaded only
// when asked and verified (size, sha-256, frontmatter), supporting files only those listed, directories read
// only from a server that declared directoryRead, and nothing fetched ahead of need.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ServerConnection } from '../../src/core/connection';
import { Logger } from '../../src/core/log';
import {
  findSkill,
  getSkill,
  listSkills,
  loadSkill,
  parseFrontmatter,
  parseSkillEntry,
  readSkillDirectory,
  readSkillFile,
  SKILL_LIMITS,
  SkillError,
  SKILLS_EXTENSION_ID,
} from '../../src/core/skills';
import { runCli } from '../fixtures/cli';
import { stdioFixture, fixtureArgv } from '../fixtures/servers';

const work = mkdtempSync(join(tmpdir(), 'mcp-host-skills-'));
after(() => rmSync(work, { recursive: true, force: true }));
let runs = 0;

/** A started connection to the fixture and the messages it has received so far. */
async function fixture(args: string[] = []) {
  const record = join(work, `record-${runs++}.jsonl`);
  const server = stdioFixture('skills-server.ts', args);
  server.env = { ...server.env, SKILLS_FIXTURE_RECORD: record };
  const c = new ServerConnection(server, { log: new Logger(() => undefined, 'error'), stopGraceMs: 1000 });
  await c.start();
  const received = (): { method: string; params?: Record<string, unknown> }[] =>
    existsSync(record)
      ? readFileSync(record, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { method: string; params?: Record<string, unknown> })
      : [];
  const reads = () =>
    received()
      .filter((m) => m.method === 'resources/read')
      .map((m) => m.params?.uri);
  return { c, received, reads };
}

describe('skills over MCP, core', () => {
  test('the host declares the extension; listing pages to the end and reads no file', async () => {
    const { c, received, reads } = await fixture();
    try {
      const init = received().find((m) => m.method === 'initialize');
      const extensions = (init?.params?.capabilities as { extensions?: Record<string, unknown> }).extensions ?? {};
      assert.ok(Object.hasOwn(extensions, SKILLS_EXTENSION_ID), `declared: ${JSON.stringify(extensions)}`);
      const { skills, cut } = await listSkills(c);
      assert.equal(cut, undefined);
      assert.deepEqual(
        skills.map((s) => s.path),
        ['git-workflow', 'pdf-processing', 'acme/billing/refunds', 'acme/support/refunds'],
      );
      assert.equal(received().filter((m) => m.method === 'skills/list').length, 2, 'both pages');
      const pdf = findSkill(skills, 'pdf-processing');
      assert.deepEqual(pdf.frontmatter, {
        name: 'pdf-processing',
        description: 'Extract, fill, and assemble PDF documents',
        license: 'Apache-2.0',
        metadata: { version: '2.1.0' },
      });
      assert.equal(Array.isArray(pdf.resources) && pdf.resources.length, 5);
      assert.equal(pdf.problem, undefined);
      assert.deepEqual(reads(), [], 'no skill file is read on connection or on listing');
      assert.equal(received().filter((m) => m.method === 'resources/directory/read').length, 0);
    } finally {
      await c.stop();
    }
  });

  test("a 2026-07-28 server is told of the extension too, in each request's client capabilities", async () => {
    const lines: string[] = [];
    const c = new ServerConnection(stdioFixture('era2026-server.ts'), { log: new Logger((_l, m) => lines.push(m), 'trace'), stopGraceMs: 1000 });
    await c.start();
    try {
      assert.equal(c.state.kind === 'running' && c.state.era, 'modern');
      const sent = lines.filter((l) => l.startsWith('[host -> server]') && l.includes('"io.modelcontextprotocol/clientCapabilities"'));
      assert.ok(sent.length > 0, 'client capabilities sent');
      for (const l of sent) {
        const meta = JSON.parse(l.slice(l.indexOf('{'))) as { params: { _meta: Record<string, { extensions?: Record<string, unknown> }> } };
        assert.deepEqual(meta.params._meta['io.modelcontextprotocol/clientCapabilities']!.extensions?.[SKILLS_EXTENSION_ID], {});
      }
    } finally {
      await c.stop();
    }
  });

  test('two skills of one name are told apart by path, never chosen between', async () => {
    const { c } = await fixture();
    try {
      const { skills } = await listSkills(c);
      assert.throws(
        () => findSkill(skills, 'refunds'),
        (e: Error) =>
          e instanceof SkillError && /2 skills are named "refunds": give one of their paths \(acme\/billing\/refunds, acme\/support\/refunds\)/.test(e.message),
      );
      assert.equal(findSkill(skills, 'acme/support/refunds').description, 'Answer questions about refunds');
      assert.equal(findSkill(skills, 'skill://acme/billing/refunds/SKILL.md').path, 'acme/billing/refunds');
      assert.throws(() => findSkill(skills, 'nope'), /no skill "nope" \(skills: git-workflow, pdf-processing, acme\/billing\/refunds/);
    } finally {
      await c.stop();
    }
  });

  test('loading reads SKILL.md alone, verified; a listed file is read only when asked, verified; others are refused', async () => {
    const { c, reads } = await fixture();
    try {
      const pdf = findSkill((await listSkills(c)).skills, 'pdf-processing');
      const loaded = await loadSkill(c, pdf);
      assert.equal(loaded.verified, true);
      assert.match(loaded.text ?? '', /^---\nname: pdf-processing\n/);
      assert.deepEqual(reads(), ['skill://pdf-processing/SKILL.md'], 'loading reads the SKILL.md only');
      const forms = await readSkillFile(c, pdf, 'references/FORMS.md');
      assert.equal(forms.text, '# Forms\n\nFill every field.\n');
      assert.equal(forms.verified, true);
      await assert.rejects(
        readSkillFile(c, pdf, 'references/NEW.md'),
        /skill:\/\/pdf-processing\/references\/NEW.md is not one of the files skill pdf-processing lists; refresh the skill/,
      );
      await assert.rejects(readSkillFile(c, pdf, '../git-workflow/SKILL.md'), /leaves the skill's directory/);
      await assert.rejects(readSkillFile(c, pdf, 'skill://git-workflow/SKILL.md'), /is not in skill pdf-processing/);
      assert.deepEqual(reads(), ['skill://pdf-processing/SKILL.md', 'skill://pdf-processing/references/FORMS.md'], 'refused files are never asked for');
    } finally {
      await c.stop();
    }
  });

  test("skills/get returns an unlisted skill's entry (and loads it); an unknown URI is the server's -32602", async () => {
    const { c, reads } = await fixture();
    try {
      const hidden = await getSkill(c, 'skill://hidden-skill/SKILL.md');
      assert.equal(hidden.name, 'hidden-skill');
      assert.deepEqual(reads(), [], 'getting reads no file');
      assert.match((await loadSkill(c, hidden)).text ?? '', /Only reachable by its URI/);
      await assert.rejects(getSkill(c, 'skill://nothing/SKILL.md'), (e: Error & { code?: number }) => e.code === -32602 && /not a skill/.test(e.message));
    } finally {
      await c.stop();
    }
  });

  test('a SKILL.md that does not match its listed digest, or whose frontmatter differs, is not loaded and nothing more is read', async () => {
    for (const [flag, message] of [
      [
        '--tampered',
        /skill:\/\/pdf-processing\/SKILL.md of skill pdf-processing \("skills-server"\) does not match its listed sha-256 digest; it was not used/,
      ],
      ['--frontmatter', /skill pdf-processing of "skills-server" was not loaded: its SKILL.md frontmatter differs from the listing in "description"/],
    ] as const) {
      const { c, reads } = await fixture([flag]);
      try {
        const pdf = findSkill((await listSkills(c)).skills, 'pdf-processing');
        await assert.rejects(loadSkill(c, pdf), (e: Error) => e instanceof SkillError && message.test(e.message));
        assert.deepEqual(reads(), ['skill://pdf-processing/SKILL.md'], flag);
        // The other skills are untouched.
        assert.match((await loadSkill(c, findSkill((await listSkills(c)).skills, 'git-workflow'))).text ?? '', /name: git-workflow/);
      } finally {
        await c.stop();
      }
    }
  });

  test('a SKILL.md longer than its listed size is refused before it is hashed or used', async () => {
    const { c, reads } = await fixture(['--padded']);
    try {
      const git = findSkill((await listSkills(c)).skills, 'git-workflow');
      await assert.rejects(
        loadSkill(c, git),
        /skill:\/\/git-workflow\/SKILL.md of skill git-workflow \("skills-server"\) is more than 116 bytes, not the 116 bytes listed; it was not used/,
      );
      assert.deepEqual(reads(), ['skill://git-workflow/SKILL.md']);
    } finally {
      await c.stop();
    }
  });

  test('directories are read with resources/directory/read, and only from a server that declared directoryRead', async () => {
    const { c } = await fixture();
    try {
      const { resources } = await readSkillDirectory(c, 'skill://pdf-processing/templates');
      assert.deepEqual(
        resources.map((r) => [r.uri, r.mimeType]),
        [
          ['skill://pdf-processing/templates/invoice.md', 'text/markdown'],
          ['skill://pdf-processing/templates/regional', 'inode/directory'],
        ],
      );
      await assert.rejects(readSkillDirectory(c, 'skill://pdf-processing/nothing'), (e: Error & { code?: number }) => e.code === -32602);
    } finally {
      await c.stop();
    }
    const plain = await fixture(['--no-directory']);
    try {
      await assert.rejects(
        readSkillDirectory(plain.c, 'skill://pdf-processing/templates'),
        /"skills-server" does not read directories \(it did not declare directoryRead\)/,
      );
      assert.equal(plain.received().filter((m) => m.method === 'resources/directory/read').length, 0, 'never asked');
    } finally {
      await plain.c.stop();
    }
  });

  test('hostile listings are bounded: 20,000 skills are cut at the entry limit, an endless cursor at the page limit', async () => {
    const huge = await fixture(['--many', '20000']);
    try {
      const { skills, cut } = await listSkills(huge.c);
      assert.equal(skills.length, SKILL_LIMITS.listEntries);
      assert.equal(cut, `stopped at ${SKILL_LIMITS.listEntries} skills`);
      assert.ok(huge.received().filter((m) => m.method === 'skills/list').length <= Math.ceil(SKILL_LIMITS.listEntries / 1000) + 1);
      assert.deepEqual(huge.reads(), []);
    } finally {
      await huge.c.stop();
    }
    const endless = await fixture(['--endless']);
    try {
      const { skills, cut } = await listSkills(endless.c);
      assert.equal(cut, `stopped after ${SKILL_LIMITS.listPages} pages of skills/list`);
      assert.equal(skills.length, SKILL_LIMITS.listPages);
      assert.equal(endless.received().filter((m) => m.method === 'skills/list').length, SKILL_LIMITS.listPages);
      const dir = await readSkillDirectory(endless.c, 'skill://pdf-processing/templates');
      assert.equal(dir.cut, `stopped after ${SKILL_LIMITS.directoryPages} pages of resources/directory/read`);
      assert.equal(dir.resources.length, SKILL_LIMITS.directoryPages);
    } finally {
      await endless.c.stop();
    }
  });
});

describe('skill entries and frontmatter', () => {
  test('an entry over the limits, or malformed, is listed with the reason it will not be loaded; loading it reads nothing', async () => {
    const digest = `sha256:${'0'.repeat(64)}`;
    const base = { uri: 'skill://big/SKILL.md', frontmatter: { name: 'big', description: 'd' } };
    const many = parseSkillEntry({ ...base, resources: Array.from({ length: 513 }, (_, i) => ({ uri: `skill://big/f${i}`, digest, size: 1 })) });
    assert.equal(many?.problem, 'not loaded: it has 513 files; the limit is 512');
    const heavy = parseSkillEntry({ ...base, resources: [{ uri: base.uri, digest, size: 16 * 1024 * 1024 + 1 }] });
    assert.equal(heavy?.problem, 'not loaded: its files add up to 16777217 bytes; the limit is 16777216');
    assert.match(parseSkillEntry({ ...base })?.problem ?? '', /it has no resources \(an array or "dynamic"\)/);
    assert.match(parseSkillEntry({ ...base, resources: [{ uri: 'skill://other/SKILL.md', digest, size: 1 }] })?.problem ?? '', /outside the skill/);
    assert.match(
      parseSkillEntry({ ...base, frontmatter: { name: 'small', description: 'd' }, resources: 'dynamic' })?.problem ?? '',
      /its uri ends in "big", not its name "small"/,
    );
    const never = {
      name: 'x',
      serverCapabilities: { extensions: { [SKILLS_EXTENSION_ID]: {} } },
      request: () => assert.fail('no request'),
      readResource: () => assert.fail('no read'),
    };
    await assert.rejects(loadSkill(never as never, many!), /skill big of "x": not loaded: it has 513 files/);
  });

  test('frontmatter is read as YAML maps, lists and scalars; what this reader does not read is refused, never guessed', () => {
    assert.deepEqual(
      parseFrontmatter(
        '---\nname: a\ndescription: "quoted: yes"\nlicense: \'it\'\'s\'\nmetadata:\n  version: "2.1"\n  n: 3\ntags: [x, y]\nlist:\n  - one\n  - two\n---\nbody',
      ),
      {
        name: 'a',
        description: 'quoted: yes',
        license: "it's",
        metadata: { version: '2.1', n: 3 },
        tags: ['x', 'y'],
        list: ['one', 'two'],
      },
    );
    assert.deepEqual(
      parseFrontmatter('---\nname: a # the name\ndescription: "Use the # sign" # quoted\nmetadata: # nested\n  # a comment line\n  k: v\n---\n'),
      {
        name: 'a',
        description: 'Use the # sign',
        metadata: { k: 'v' },
      },
    );
    assert.throws(() => parseFrontmatter('no frontmatter'), /does not begin with a "---" frontmatter block/);
    assert.throws(() => parseFrontmatter('---\nname: a\ndescription: |\n  block\n---\n'), /YAML this host does not read/);
    assert.throws(() => parseFrontmatter('---\nname: a\nname: b\n---\n'), /the field "name" appears twice/);
  });
});

describe('mcp-host skills', () => {
  const target = () => ['--', process.execPath, ...fixtureArgv('skills-server.ts')];

  test('skills lists names (paths where names collide), descriptions and file counts; --json the entries', async () => {
    const r = await runCli(['skills', ...target()]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(r.out.trim().split('\n'), [
      "git-workflow\tFollow the team's Git conventions\t(1 file, 116 bytes)",
      'pdf-processing\tExtract, fill, and assemble PDF documents\t(5 files, 244 bytes)',
      'acme/billing/refunds\tProcess refund requests\t(2 files, 111 bytes)',
      'acme/support/refunds\tAnswer questions about refunds\t(1 file, 103 bytes)',
    ]);
    const json = await runCli(['skills', '--json', ...target()]);
    assert.equal(json.code, 0, json.err);
    assert.equal((JSON.parse(json.out) as { uri: string }[])[1]!.uri, 'skill://pdf-processing/SKILL.md');
  });

  test('skill get prints the verified SKILL.md; skill read a listed file; skill ls a directory; a tampered skill exits 5', async () => {
    const get = await runCli(['skill', 'get', 'pdf-processing', ...target()]);
    assert.equal(get.code, 0, get.err);
    assert.match(get.out, /^---\nname: pdf-processing\n/);
    assert.match(get.err, /skill:\/\/pdf-processing\/SKILL.md from "node" \(size and sha-256 verified\)/);
    const read = await runCli(['skill', 'read', 'acme/billing/refunds', 'examples/email.md', ...target()]);
    assert.equal(read.code, 0, read.err);
    assert.equal(read.out, 'Dear customer,\n');
    const ls = await runCli(['skill', 'ls', 'pdf-processing', 'templates', ...target()]);
    assert.equal(ls.out, 'skill://pdf-processing/templates/invoice.md\nskill://pdf-processing/templates/regional/\n');
    const hidden = await runCli(['skill', 'get', 'skill://hidden-skill/SKILL.md', ...target()]);
    assert.equal(hidden.code, 0, hidden.err);
    const bad = await runCli(['skill', 'get', 'pdf-processing', ...target(), '--tampered']);
    assert.equal(bad.code, 5);
    assert.equal(bad.out, '');
    assert.match(bad.err, /does not match its listed sha-256 digest; it was not used/);
    const usage = await runCli(['skill', 'fetch', 'x', ...target()]);
    assert.equal(usage.code, 1);
    assert.match(usage.err, /skill needs get, read or ls/);
  });
});
