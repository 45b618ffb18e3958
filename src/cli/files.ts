// `mcp-host call TOOL --file ARG=PATH ...` and the file lines of `mcp-host tools`.

import { resolve } from 'node:path';
import type { TransportKind } from '../core/config';
import { InputRefusedError } from '../core/errors';
import {
  checkDataUriValue,
  checkFile,
  describeAccept,
  describeDataUri,
  findFileSlots,
  formatBytes,
  getAtPath,
  inlineLimitsFor,
  pathInsideRoots,
  withoutUploads,
  type CheckedFile,
  type FileSlot,
  type FileUploader,
  type InlineLimitOverrides,
  type ToolLike,
} from '../core/files';
import type { Logger } from '../core/log';
import { encodeFileSlots, FileChoices, type EncodeSettings, type UploadReporter } from '../core/run';

/** One line per file slot: `image  file  accept image/png, image/jpeg  max 5 MiB  required`, then warnings. */
export function describeFileSlots(tool: ToolLike): string[] {
  const { slots, warnings } = findFileSlots(tool);
  const lines = slots.map((slot) => {
    const parts = [slot.label, slot.multiple ? `files${countText(slot)}` : 'file'];
    if (slot.origin === 'file-input-object') parts.push(`object (${(slot.objectModes ?? []).join('/')})`);
    parts.push(`accept ${describeAccept(slot.accept)}`);
    if (slot.maxSize !== undefined) parts.push(`max ${formatBytes(slot.maxSize)}${slot.multiple ? ' each' : ''}`);
    if (slot.required) parts.push('required');
    if (slot.filenameCompanion) parts.push(`name goes to ${slot.filenameCompanion.join('.')}`);
    return parts.join('  ');
  });
  return [...lines, ...warnings.map((w) => `warning: ${w}`)];
}

function countText(slot: FileSlot): string {
  if (slot.minItems !== undefined && slot.maxItems !== undefined) return ` (${slot.minItems}-${slot.maxItems})`;
  if (slot.minItems !== undefined) return ` (at least ${slot.minItems})`;
  if (slot.maxItems !== undefined) return ` (at most ${slot.maxItems})`;
  return '';
}

export interface FileOptionSettings {
  /** Send the legacy `;name=` data-URI parameter (compatibility toggle, off by default). */
  legacyName?: boolean;
  limits?: InlineLimitOverrides;
  /** Folders a FileInput `path` may point into; defaults to the current directory. */
  workspaceRoots?: string[];
  /** The server was started over stdio on this machine (FileInput `path` is only allowed then). */
  serverIsLocalStdio?: boolean;
  /** SEP-2631: the connection's transfer client (files the check marked for upload go through it). */
  uploader?: FileUploader;
  signal?: AbortSignal;
  /** What the arguments belong to, for the messages (default: tool). */
  subject?: 'tool' | 'prompt';
  /** A progress reporter for each uploaded file. */
  uploadProgress?: (name: string, size: number) => { onBytes(sent: number): void; destination(host: string): void; done(): void };
}

function parseSpecs(specs: string[], slots: FileSlot[], subject: string): Map<FileSlot, string[]> {
  const bySlot = new Map<FileSlot, string[]>();
  const names = slots.map((s) => s.label).join(', ') || 'none';
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    if (eq <= 0 || eq === spec.length - 1) {
      throw new InputRefusedError(`--file ${spec}: expected ARG=PATH (file arguments of this ${subject}: ${names})`);
    }
    const label = spec.slice(0, eq);
    const slot = slots.find((s) => s.label === label);
    if (!slot) throw new InputRefusedError(`--file ${spec}: '${label}' is not a file argument of this ${subject} (file arguments: ${names})`, label);
    const paths = bySlot.get(slot) ?? [];
    paths.push(spec.slice(eq + 1));
    bySlot.set(slot, paths);
  }
  for (const [slot, paths] of bySlot) {
    if (!slot.multiple && paths.length > 1) {
      throw new InputRefusedError(`${slot.label}: takes one file, but --file named ${paths.length}`, slot.label);
    }
    if (slot.maxItems !== undefined && paths.length > slot.maxItems) {
      throw new InputRefusedError(`${slot.label}: takes at most ${slot.maxItems} files, but --file named ${paths.length}`, slot.label);
    }
    if (slot.minItems !== undefined && paths.length < slot.minItems) {
      throw new InputRefusedError(`${slot.label}: needs at least ${slot.minItems} files, but --file named ${paths.length}`, slot.label);
    }
  }
  return bySlot;
}

/**
 * A file slot's value given in --args: only data: URIs, checked like a server would (type, maxSize). A path or
 * any other URI is refused, never read or fetched.
 */
function checkGivenValue(slot: FileSlot, value: unknown, log: Logger): void {
  if (!slot.multiple && Array.isArray(value)) throw new InputRefusedError(`${slot.label}: takes one file, but --args gives a list`, slot.label);
  const items = Array.isArray(value) ? value : [value];
  items.forEach((item, i) => {
    const name = Array.isArray(value) ? `${slot.label}[${i}]` : slot.label;
    if (typeof item !== 'string' || !/^data:/i.test(item)) {
      const shown = typeof item === 'string' ? `"${item.length > 80 ? `${item.slice(0, 79)}…` : item}"` : `a ${item === null ? 'null' : typeof item}`;
      throw new InputRefusedError(
        `${name}: --args gives ${shown}, but a file argument takes a data: URI (nothing is read from paths or URLs); pass --file ${slot.label}=PATH to send a local file`,
        slot.label,
      );
    }
    const check = checkDataUriValue(name, item, { accept: slot.accept, maxSize: slot.maxSize });
    if (!check.ok) throw new InputRefusedError(check.reason, slot.label);
    log.info(`${name}: data: URI from --args (${describeDataUri(item)})`);
  });
}

/**
 * A FileInput object given in --args: a `path` in it obeys the rule of one filled from --file (a local stdio
 * server, inside the working folder), and is sent as its real path.
 */
async function checkGivenObject(slot: FileSlot, value: unknown, transport: TransportKind, settings: FileOptionSettings): Promise<void> {
  const items = Array.isArray(value) ? value : [value];
  for (const item of items) {
    if (typeof item !== 'object' || item === null || !Object.hasOwn(item, 'path')) continue;
    const path = (item as { path: unknown }).path;
    if (typeof path !== 'string') throw new InputRefusedError(`${slot.label}: --args gives a "path" that is not a string`, slot.label);
    if (!(settings.serverIsLocalStdio ?? transport === 'stdio')) {
      throw new InputRefusedError(`${slot.label}: a file path can only be given to a server running on this machine over stdio`, slot.label);
    }
    try {
      (item as { path: string }).path = await pathInsideRoots(slot, path, settings.workspaceRoots ?? [process.cwd()]);
    } catch (e) {
      throw new InputRefusedError((e as Error).message, slot.label);
    }
  }
}

/**
 * The files of `--file ARG=PATH` options, checked; run it for every call (with no specs it still refuses a
 * missing required file and checks file values given in --args). Every file is checked first (existence, size
 * from stat, accept from its content); any refusal throws InputRefusedError before a byte is read for sending.
 * The run pipeline then reads each file once and encodes it (encodeFileSlots).
 */
export async function fileOptionChoices(
  tool: ToolLike,
  args: Record<string, unknown>,
  specs: string[],
  transport: TransportKind,
  log: Logger,
  settings: FileOptionSettings = {},
): Promise<FileChoices> {
  const { slots } = findFileSlots(tool, log);
  // A server that takes no uploads gets limits without them: a file too large to send inline is refused from stat.
  const configured = inlineLimitsFor(transport, settings.limits);
  const limits =
    settings.uploader?.limitsFor?.(configured) ??
    (configured.upload && !settings.uploader ? withoutUploads(configured, 'out-of-band transfer is not available here') : configured);
  const bySlot = parseSpecs(specs, slots, settings.subject ?? 'tool');
  for (const slot of slots) {
    const given = getAtPath(args, slot.path);
    if (bySlot.has(slot) || given === undefined) continue;
    if (slot.origin !== 'file-input-object') checkGivenValue(slot, given, log);
    else await checkGivenObject(slot, given, transport, settings);
  }

  const missing = slots.filter((s) => s.required && !bySlot.has(s) && getAtPath(args, s.path) === undefined);
  if (missing.length > 0) {
    const first = missing[0]!;
    throw new InputRefusedError(
      `${first.label}: this ${settings.subject ?? 'tool'} needs a file (${describeAccept(first.accept)}); pass --file ${first.label}=PATH`,
      first.label,
    );
  }

  const choices = new FileChoices(slots, () => limits);
  const refusals: Array<{ slot: FileSlot; reason: string }> = [];
  for (const [slot, paths] of bySlot) {
    const files: CheckedFile[] = [];
    for (const path of paths) {
      const check = await checkFile(resolve(path), slot, limits);
      if (!check.ok) refusals.push({ slot, reason: check.reason });
      else {
        files.push(check.file);
        for (const w of check.warnings) log.warn(w);
      }
    }
    choices.put(slot, files);
  }
  if (refusals.length > 0) {
    throw new InputRefusedError(refusals.map((r) => r.reason).join('\n'), refusals[0]!.slot.label);
  }
  return choices;
}

/** How the CLI encodes files: FileInput paths inside the current directory, `path` only for a local stdio server. */
export function cliEncodeSettings(transport: TransportKind, settings: FileOptionSettings = {}): EncodeSettings {
  return {
    legacyName: settings.legacyName,
    workspaceRoots: settings.workspaceRoots ?? [process.cwd()],
    serverIsLocalStdio: settings.serverIsLocalStdio ?? transport === 'stdio',
    ...(settings.uploader ? { uploader: settings.uploader } : {}),
  };
}

/** The run's upload reporter over the CLI's per-file progress lines (one line per file, finished when the next starts). */
export function cliUploadReporter(line: FileOptionSettings['uploadProgress'], signal?: AbortSignal): UploadReporter | undefined {
  if (!line) return signal ? { signal, report: () => undefined, done: () => undefined } : undefined;
  let current: { file: CheckedFile; line: ReturnType<NonNullable<FileOptionSettings['uploadProgress']>> } | undefined;
  const lineFor = (file: CheckedFile) => {
    if (current?.file !== file) {
      current?.line.done();
      current = { file, line: line(file.name, file.size) };
    }
    return current.line;
  };
  return {
    ...(signal ? { signal } : {}),
    report: (file, sent) => lineFor(file).onBytes(sent),
    destination: (file, host) => lineFor(file).destination(host),
    done() {
      current?.line.done();
      current = undefined;
    },
  };
}

/** fileOptionChoices, then the files read (or uploaded) and encoded into `args` the way a call sends them. */
export async function applyFileOptions(
  tool: ToolLike,
  args: Record<string, unknown>,
  specs: string[],
  transport: TransportKind,
  log: Logger,
  settings: FileOptionSettings = {},
): Promise<void> {
  const choices = await fileOptionChoices(tool, args, specs, transport, log, settings);
  const reporter = cliUploadReporter(settings.uploadProgress, settings.signal);
  try {
    await encodeFileSlots(args, choices.entries(), choices.limits, cliEncodeSettings(transport, settings), log, { reporter, signal: settings.signal });
  } finally {
    reporter?.done();
  }
}
