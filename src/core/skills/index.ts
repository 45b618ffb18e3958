// Skills served over MCP (SEP-2640, extension `io.modelcontextprotocol/skills`), the client side.
// - listSkills: `skills/list` read to its end, bounded in pages and entries; each entry checked, never a file read.
// - getSkill: `skills/get` for one SKILL.md URI (a skill the listing left out, or a fresh entry).
// - loadSkill: the one path that loads a skill: its SKILL.md read through `resources/read` and verified against
//   the entry (size, sha-256 digest, frontmatter field by field); content that fails is never returned.
// - readSkillFile: a supporting file, only one the entry lists, verified the same way.
// - readSkillDirectory: `resources/directory/read`, only when the server declared `directoryRead`, bounded.
// Nothing here reads a skill's files ahead of need: listing and getting touch no file.
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { ReadResourceResult, Resource, StandardSchemaV1 } from '@modelcontextprotocol/client';
import { isObject } from '../../shared/json';
import { ServerRequestError } from '../errors';
import type { CallOptions } from '../connection/types';
import { MiB } from '../io/limits';
import { FrontmatterError, parseFrontmatter } from './frontmatter';
import { schemaOf } from '../resultSchema';

export { FrontmatterError, parseFrontmatter } from './frontmatter';

/** The extension's identifier in `capabilities.extensions`. */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';

export const SKILL_LIMITS = {
  /** SEP-2640: hosts must support skills up to these two; a larger one is listed but not loaded. */
  resourcesPerSkill: 512,
  totalBytesPerSkill: 16 * MiB,
  /** The host's own bounds on what a server may make it hold. */
  listPages: 100,
  listEntries: 5000,
  directoryPages: 100,
  directoryEntries: 10_000,
  /** Characters of a name, description or URI kept for display. */
  textChars: 2000,
} as const;

/** What a connection must offer (ServerConnection does). */
export interface SkillsConnection {
  readonly name: string;
  readonly serverCapabilities: { extensions?: Record<string, unknown> } | undefined;
  request<T>(method: string, params: Record<string, unknown>, schema: StandardSchemaV1<unknown, T>, opts?: CallOptions): Promise<T>;
  readResource(uri: string, opts?: CallOptions): Promise<ReadResourceResult>;
}

export interface SkillFile {
  uri: string;
  digest: string;
  size: number;
}

export interface SkillEntry {
  /** The URI of the skill's SKILL.md: with the server, its identity. */
  uri: string;
  /** frontmatter.name (a label: not unique). */
  name: string;
  description: string;
  /** The skill's path (`acme/billing/refunds`): what tells apart two skills of one name. */
  path: string;
  frontmatter: Record<string, unknown>;
  resources: SkillFile[] | 'dynamic';
  /** Why the host will not load this skill (a malformed entry, over a limit); listed anyway, saying so. */
  problem?: string;
}

export interface SkillList {
  skills: SkillEntry[];
  /** Set when the listing was cut (page or entry bound): what the host stopped at and why. */
  cut?: string;
}

export class SkillError extends ServerRequestError {
  static override readonly brand: string = 'SkillError';
}

/** The server's declaration of the extension, or undefined when it did not declare it. */
export function skillsSupport(connection: Pick<SkillsConnection, 'serverCapabilities'>): { directoryRead: boolean } | undefined {
  const ext = connection.serverCapabilities?.extensions;
  if (!isObject(ext) || !Object.hasOwn(ext, SKILLS_EXTENSION_ID)) return undefined;
  const settings = ext[SKILLS_EXTENSION_ID];
  return { directoryRead: isObject(settings) && settings.directoryRead === true };
}

function requireSkills(connection: SkillsConnection): { directoryRead: boolean } {
  const support = skillsSupport(connection);
  if (!support) throw new SkillError(`"${connection.name}" does not serve skills (it did not declare ${SKILLS_EXTENSION_ID})`);
  return support;
}

const AnyObject = schemaOf((v) => {
  if (!isObject(v)) throw new Error('the result is not an object');
  return v;
});

const short = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…` : s);

/** The skill path of a SKILL.md URI (`skill://acme/refunds/SKILL.md` -> `acme/refunds`), or undefined. */
export function skillPathOf(uri: string): string | undefined {
  const scheme = uri.indexOf('://');
  if (scheme < 0 || !uri.endsWith('/SKILL.md')) return undefined;
  const path = uri.slice(scheme + 3, -'/SKILL.md'.length);
  return path === '' ? undefined : path;
}

/** The skill's root directory URI (its SKILL.md URI without `/SKILL.md`). */
export function skillRootOf(entry: Pick<SkillEntry, 'uri'>): string {
  return entry.uri.slice(0, -'/SKILL.md'.length);
}

/** A listed entry checked; a bad one is kept with its `problem` (the person sees it) unless it has no URI. */
export function parseSkillEntry(value: unknown): SkillEntry | undefined {
  if (!isObject(value) || typeof value.uri !== 'string' || value.uri === '') return undefined;
  const uri = value.uri.slice(0, SKILL_LIMITS.textChars);
  const frontmatter = isObject(value.frontmatter) ? value.frontmatter : {};
  const name = typeof frontmatter.name === 'string' ? frontmatter.name.slice(0, SKILL_LIMITS.textChars) : '';
  const description = typeof frontmatter.description === 'string' ? frontmatter.description.slice(0, SKILL_LIMITS.textChars) : '';
  const path = skillPathOf(uri);
  const entry: SkillEntry = { uri, name, description, path: path ?? uri, frontmatter, resources: 'dynamic' };
  const problems: string[] = [];
  if (!isObject(value.frontmatter)) problems.push('it has no frontmatter');
  else if (!name || !description) problems.push('its frontmatter lacks a name or a description');
  if (!path) problems.push('its uri does not name a SKILL.md');
  else if (name && path.split('/').at(-1) !== name) problems.push(`its uri ends in "${short(path.split('/').at(-1)!)}", not its name "${short(name)}"`);
  if (value.resources === 'dynamic') {
    entry.resources = 'dynamic';
  } else if (!Array.isArray(value.resources)) {
    problems.push('it has no resources (an array or "dynamic")');
  } else if (value.resources.length > SKILL_LIMITS.resourcesPerSkill) {
    problems.push(`it has ${value.resources.length} files; the limit is ${SKILL_LIMITS.resourcesPerSkill}`);
    entry.resources = [];
  } else {
    const files: SkillFile[] = [];
    const root = `${uri.slice(0, -'SKILL.md'.length)}`;
    for (const r of value.resources) {
      if (
        !isObject(r) ||
        typeof r.uri !== 'string' ||
        typeof r.digest !== 'string' ||
        typeof r.size !== 'number' ||
        !Number.isSafeInteger(r.size) ||
        r.size < 0 ||
        !/^sha256:[0-9a-f]{64}$/.test(r.digest)
      ) {
        problems.push('a file of it lacks a uri, a sha256 digest or a size');
        break;
      }
      if (r.uri !== uri && !r.uri.startsWith(root)) {
        problems.push(`the file ${short(r.uri)} is outside the skill`);
        break;
      }
      if (files.some((f) => f.uri === r.uri)) {
        problems.push(`the file ${short(r.uri)} is listed twice`);
        break;
      }
      files.push({ uri: r.uri, digest: r.digest, size: r.size });
    }
    const total = files.reduce((n, f) => n + f.size, 0);
    if (!files.some((f) => f.uri === uri)) problems.push('its files do not include its SKILL.md');
    if (total > SKILL_LIMITS.totalBytesPerSkill) problems.push(`its files add up to ${total} bytes; the limit is ${SKILL_LIMITS.totalBytesPerSkill}`);
    entry.resources = files;
  }
  if (problems.length) entry.problem = `not loaded: ${problems.join('; ')}`;
  return entry;
}

/**
 * `skills/list` to its last page, within SKILL_LIMITS.listPages pages and listEntries entries (then cut, saying
 * so); a cursor seen before ends the listing too. Reads no skill file.
 */
export async function listSkills(connection: SkillsConnection, opts: CallOptions = {}): Promise<SkillList> {
  requireSkills(connection);
  const skills: SkillEntry[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page >= SKILL_LIMITS.listPages) return { skills, cut: `stopped after ${SKILL_LIMITS.listPages} pages of skills/list` };
    const result = await connection.request('skills/list', cursor === undefined ? {} : { cursor }, AnyObject, opts);
    if (!Array.isArray(result.skills)) throw new SkillError(`"${connection.name}" answered skills/list without a skills array`);
    for (const item of result.skills) {
      if (skills.length >= SKILL_LIMITS.listEntries) return { skills, cut: `stopped at ${SKILL_LIMITS.listEntries} skills` };
      const entry = parseSkillEntry(item);
      if (entry) skills.push(entry);
    }
    const next = result.nextCursor;
    if (typeof next !== 'string' || next === '') return { skills };
    if (cursors.has(next) || next.length > 4096) return { skills, cut: 'stopped: skills/list repeated a cursor' };
    cursors.add(next);
    cursor = next;
  }
}

/** `skills/get` for the SKILL.md URI: the skill's current entry (listed or not). Reads no skill file. */
export async function getSkill(connection: SkillsConnection, uri: string, opts: CallOptions = {}): Promise<SkillEntry> {
  requireSkills(connection);
  const result = await connection.request('skills/get', { uri }, AnyObject, opts);
  const entry = parseSkillEntry(result.skill);
  if (!entry) throw new SkillError(`"${connection.name}" answered skills/get without a skill entry`);
  if (entry.uri !== uri) throw new SkillError(`"${connection.name}" answered skills/get for ${short(uri)} with another skill (${short(entry.uri)})`);
  return entry;
}

/**
 * The entry a person or a model names: an exact SKILL.md URI, else a path (`acme/billing/refunds`), else a name
 * when only one skill has it. Two skills of one name are never chosen between: the error lists their paths.
 */
export function findSkill(skills: readonly SkillEntry[], wanted: string): SkillEntry {
  const byUri = skills.find((s) => s.uri === wanted);
  if (byUri) return byUri;
  const byPath = skills.filter((s) => s.path === wanted);
  if (byPath.length === 1) return byPath[0]!;
  const byName = skills.filter((s) => s.name === wanted);
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1)
    throw new SkillError(`${byName.length} skills are named "${short(wanted)}": give one of their paths (${byName.map((s) => s.path).join(', ')})`);
  throw new SkillError(
    `no skill "${short(wanted)}"${
      skills.length
        ? ` (skills: ${skills
            .slice(0, 20)
            .map((s) => displayName(s, skills))
            .join(', ')}${skills.length > 20 ? ', …' : ''})`
        : ''
    }`,
  );
}

/** The name to show: the name, or the path when another listed skill has the same name. */
export function displayName(entry: SkillEntry, all: readonly SkillEntry[]): string {
  return all.some((s) => s !== entry && s.name === entry.name) || !entry.name ? entry.path : entry.name;
}

export interface SkillContent {
  uri: string;
  mimeType?: string;
  /** The file's bytes, verified against the entry when it lists them. */
  bytes: Buffer;
  /** The bytes as UTF-8 when they are text. */
  text?: string;
  verified: boolean;
}

/** Loads a skill: reads its SKILL.md and verifies it (size, digest, frontmatter). Throws a SkillError otherwise. */
export async function loadSkill(connection: SkillsConnection, entry: SkillEntry, opts: CallOptions = {}): Promise<SkillContent> {
  if (entry.problem) throw new SkillError(`skill ${short(entry.path)} of "${connection.name}": ${entry.problem}`);
  const content = await readListed(connection, entry, entry.uri, opts);
  let frontmatter: Record<string, unknown>;
  try {
    frontmatter = parseFrontmatter(content.text ?? '');
  } catch (e) {
    const why = e instanceof FrontmatterError ? e.message : String(e);
    throw new SkillError(
      `skill ${short(entry.path)} of "${connection.name}" was not loaded: its SKILL.md frontmatter cannot be compared with the listing (${why})`,
    );
  }
  const fields = [...new Set([...Object.keys(frontmatter), ...Object.keys(entry.frontmatter)])].filter(
    (k) => !isDeepStrictEqual(frontmatter[k] ?? null, entry.frontmatter[k] ?? null),
  );
  if (fields.length) {
    throw new SkillError(
      `skill ${short(entry.path)} of "${connection.name}" was not loaded: its SKILL.md frontmatter differs from the listing in ${fields
        .slice(0, 10)
        .map((f) => `"${short(f)}"`)
        .join(', ')}`,
    );
  }
  return content;
}

/**
 * A supporting file of a skill, by its path relative to the skill root (`references/GUIDE.md`) or its URI. Only
 * a file the entry lists is read (a dynamic skill: any file under its root, up to the total-size limit).
 */
export async function readSkillFile(connection: SkillsConnection, entry: SkillEntry, file: string, opts: CallOptions = {}): Promise<SkillContent> {
  if (entry.problem) throw new SkillError(`skill ${short(entry.path)} of "${connection.name}": ${entry.problem}`);
  const root = skillRootOf(entry);
  const uri = file.includes('://') ? file : `${root}/${file.replace(/^\.?\//, '')}`;
  if (uri.split('/').some((segment) => segment === '..' || segment === '.')) throw new SkillError(`the file ${short(file)} leaves the skill's directory`);
  if (!uri.startsWith(`${root}/`)) throw new SkillError(`the file ${short(file)} is not in skill ${short(entry.path)}`);
  return readListed(connection, entry, uri, opts);
}

async function readListed(connection: SkillsConnection, entry: SkillEntry, uri: string, opts: CallOptions): Promise<SkillContent> {
  const listed = entry.resources === 'dynamic' ? undefined : entry.resources.find((f) => f.uri === uri);
  if (entry.resources !== 'dynamic' && !listed) {
    throw new SkillError(`${short(uri)} is not one of the files skill ${short(entry.path)} lists; refresh the skill (skills/get) to read a file added since`);
  }
  const limit = listed ? listed.size : SKILL_LIMITS.totalBytesPerSkill;
  const read = await connection.readResource(uri, opts);
  const item = (read.contents ?? []).find((c) => c.uri === uri) ?? read.contents?.[0];
  if (!item) throw new SkillError(`"${connection.name}" answered resources/read for ${short(uri)} with no content`);
  let bytes: Buffer;
  if ('text' in item && typeof item.text === 'string') {
    // Over four bytes a character is impossible; a text that long cannot match the size (or the limit).
    if (item.text.length > limit) throw sizeError(connection, entry, uri, listed, `more than ${limit} bytes`);
    bytes = Buffer.from(item.text, 'utf8');
  } else if ('blob' in item && typeof item.blob === 'string') {
    if (Math.floor((item.blob.length * 3) / 4) > limit + 3)
      throw sizeError(connection, entry, uri, listed, `about ${Math.floor((item.blob.length * 3) / 4)} bytes`);
    bytes = Buffer.from(item.blob, 'base64');
  } else {
    throw new SkillError(`"${connection.name}" answered resources/read for ${short(uri)} with neither text nor blob`);
  }
  if (bytes.length > limit || (listed && bytes.length !== listed.size)) throw sizeError(connection, entry, uri, listed, `${bytes.length} bytes`);
  if (listed) {
    const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    if (digest !== listed.digest) {
      throw new SkillError(
        `${short(uri)} of skill ${short(entry.path)} ("${connection.name}") does not match its listed sha-256 digest; it was not used (the skill changed: refresh it)`,
      );
    }
  }
  const text = bytes.toString('utf8');
  const isText = !text.includes('\uFFFD') && !text.includes('\0');
  return { uri, ...(typeof item.mimeType === 'string' ? { mimeType: item.mimeType } : {}), bytes, ...(isText ? { text } : {}), verified: !!listed };
}

function sizeError(connection: SkillsConnection, entry: SkillEntry, uri: string, listed: SkillFile | undefined, got: string): SkillError {
  return new SkillError(
    listed
      ? `${short(uri)} of skill ${short(entry.path)} ("${connection.name}") is ${got}, not the ${listed.size} bytes listed; it was not used (the skill changed: refresh it)`
      : `${short(uri)} of skill ${short(entry.path)} ("${connection.name}") is ${got}, over the ${SKILL_LIMITS.totalBytesPerSkill}-byte limit of a skill; it was not used`,
  );
}

export interface DirectoryListing {
  resources: Resource[];
  cut?: string;
}

/** `resources/directory/read` to its last page (bounded), only when the server declared `directoryRead`. */
export async function readSkillDirectory(connection: SkillsConnection, uri: string, opts: CallOptions = {}): Promise<DirectoryListing> {
  if (!requireSkills(connection).directoryRead) throw new SkillError(`"${connection.name}" does not read directories (it did not declare directoryRead)`);
  const resources: Resource[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page >= SKILL_LIMITS.directoryPages) return { resources, cut: `stopped after ${SKILL_LIMITS.directoryPages} pages of resources/directory/read` };
    const result = await connection.request('resources/directory/read', { uri, ...(cursor === undefined ? {} : { cursor }) }, AnyObject, opts);
    if (!Array.isArray(result.resources)) throw new SkillError(`"${connection.name}" answered resources/directory/read without a resources array`);
    for (const r of result.resources) {
      if (resources.length >= SKILL_LIMITS.directoryEntries) return { resources, cut: `stopped at ${SKILL_LIMITS.directoryEntries} entries` };
      if (isObject(r) && typeof r.uri === 'string') {
        resources.push({
          uri: r.uri.slice(0, SKILL_LIMITS.textChars),
          name: typeof r.name === 'string' ? r.name.slice(0, SKILL_LIMITS.textChars) : r.uri.slice(0, SKILL_LIMITS.textChars),
          ...(typeof r.mimeType === 'string' ? { mimeType: r.mimeType.slice(0, 200) } : {}),
          ...(typeof r.size === 'number' ? { size: r.size } : {}),
        });
      }
    }
    const next = result.nextCursor;
    if (typeof next !== 'string' || next === '') return { resources };
    if (cursors.has(next) || next.length > 4096) return { resources, cut: 'stopped: resources/directory/read repeated a cursor' };
    cursors.add(next);
    cursor = next;
  }
}

/** Whether a resource of a directory listing is itself a directory. */
export const isDirectory = (r: { mimeType?: string }): boolean => r.mimeType === 'inode/directory';
