// An agent's tool call, prepared for the run pipeline: the model's arguments split into values and workspace
// paths, each path resolved and checked (folders, links, hidden files, then accept, maxSize and the transport's
// ceiling, all before a byte is read), and the files described for the user's confirmation. Running it is the
// pipeline's runTool with the prepared form values and file choices, exactly as the panel runs a tool.

import type { Tool } from '@modelcontextprotocol/client';
import { checkTotalSize, findFileSlots, formatBytes, type CheckedFile, type FileSlot, type InlineLimits } from '../files';
import { buildForm, defaultValues, pointer } from '../forms';
import type { FormModel, FormValues } from '../../shared/formModel';
import { checkValues, FileChoices } from '../run';
import { splitModelArguments } from './modelArguments';
import { resolveWorkspacePath, workspaceLabel, type ResolvedPath, type WorkspaceFolderRules } from './workspacePaths';

export interface AgentFile {
  /** The slot's label (the argument). */
  argument: string;
  /** Where the file is in the workspace, as the user knows it. */
  shown: string;
  file: CheckedFile;
}

export interface AgentCallPlan {
  tool: Tool;
  form: FormModel;
  values: FormValues;
  files: FileChoices;
  /** Every file the call sends, in slot order. */
  described: AgentFile[];
}

export type AgentCallCheck = { ok: true; plan: AgentCallPlan } | { ok: false; reason: string };

export interface AgentCallContext {
  folders: readonly WorkspaceFolderRules[];
  limits: (slot: FileSlot) => InlineLimits;
  /** Paths (resolved, real) the user picked themselves: hidden and secret-looking files are allowed for them. */
  userPicked?: ReadonlySet<string>;
}

function argumentName(fieldId: string): string {
  return fieldId === '' ? 'arguments' : fieldId.slice(1).split('/').join('.');
}

/**
 * Checks an agent's call without reading any file: arguments against the tool's schema, every path against the
 * workspace and every file against its slot. A refusal names the argument, the file and the limit or rule.
 */
export async function planAgentCall(tool: Tool, input: unknown, context: AgentCallContext): Promise<AgentCallCheck> {
  const { slots } = findFileSlots(tool);
  const split = splitModelArguments(input, slots);
  if (!split.ok) return split;
  const form = buildForm(tool.inputSchema, slots);
  const files = new FileChoices(slots, context.limits);
  const shown = new Map<string, string[]>();
  for (const { slot, paths } of split.files) {
    const real: string[] = [];
    for (const given of paths) {
      const resolved = await resolvePath(slot.label, given, context);
      if (!resolved.ok) return resolved;
      real.push(resolved.path);
      shown.set(slot.label, [...(shown.get(slot.label) ?? []), workspaceLabel(resolved, context.folders.length)]);
    }
    const added = await files.add(pointer(slot.path), real);
    if (!added.ok) return { ok: false, reason: added.reason };
  }
  const entries = files.entries();
  const described = entries.flatMap((e) => e.files.map((file, i) => ({ argument: e.slot.label, shown: shown.get(e.slot.label)?.[i] ?? file.name, file })));
  if (entries.length > 0) {
    const together = checkTotalSize(
      described.map((d) => d.file),
      context.limits(entries[0]!.slot),
    );
    if (together) return { ok: false, reason: together };
  }
  const values = { ...defaultValues(form), ...split.args };
  const errors = checkValues(form, values, files);
  const first = Object.entries(errors)[0];
  if (first) {
    const [field, message] = first;
    const slot = slots.find((s) => pointer(s.path) === field);
    const hint = slot ? ' Give the path of a file in the workspace.' : '';
    return { ok: false, reason: `Argument '${slot?.label ?? argumentName(field)}': ${message}${hint}` };
  }
  return { ok: true, plan: { tool, form, values, files, described } };
}

/** A path resolved for the agent; a hidden or secret-looking file passes only when the user picked it. */
async function resolvePath(argument: string, given: string, context: AgentCallContext): Promise<ResolvedPath> {
  const resolved = await resolveWorkspacePath(argument, given, context.folders);
  if (resolved.ok || !context.userPicked?.size) return resolved;
  const picked = await resolveWorkspacePath(argument, given, context.folders, { userPicked: true });
  return picked.ok && context.userPicked.has(picked.path) ? picked : resolved;
}

/** One line per file for the confirmation: where it is, its type and size, and the argument it fills. */
export function describeAgentFiles(plan: AgentCallPlan): string[] {
  return plan.described.map((d) => `${d.shown} (${d.file.mediaType}, ${formatBytes(d.file.size)}) as '${d.argument}'`);
}
