// Large tool results kept for the session: in memory (bounded in count and bytes), shown to the user as
// read-only `mcp-result:` documents and read by the model in ranges through `mcpHost_readResult`.
// Nothing is written into the workspace: the user saves a document if they want it there.

import * as vscode from 'vscode';
import { formatBytes } from '../../core/files';
import {
  KeptResults,
  modelPreviewUri,
  parseResultPartPath,
  readRange,
  resultPartUri,
  RESULT_SCHEME,
  type KeptResult,
  type RangeRequest,
} from '../../core/results';

export const READ_RESULT_TOOL = 'mcpHost_readResult';
export const OPEN_KEPT_RESULT_COMMAND = 'mcpHost.openAgentResult';

export interface ReadResultInput {
  handle?: unknown;
  part?: unknown;
  startLine?: unknown;
  endLine?: unknown;
  startByte?: unknown;
  endByte?: unknown;
}

function optionalNumber(input: ReadResultInput, name: keyof ReadResultInput): number | undefined {
  const v = input[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number') throw new Error(`"${name}" must be a number (got ${JSON.stringify(v)}).`);
  return v;
}

/** The session's kept results, the `mcp-result:` documents that show them, and range reads by handle. */
export class KeptResultDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly store = new KeptResults();

  register(): vscode.Disposable {
    return vscode.Disposable.from(
      vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, this),
      vscode.commands.registerCommand(OPEN_KEPT_RESULT_COMMAND, () => this.pickAndOpen()),
    );
  }

  /** Lets the user open a kept result's parts whole, or what the model was given, as read-only documents. */
  async pickAndOpen(): Promise<vscode.TextEditor | undefined> {
    const items = this.store
      .list()
      .reverse()
      .flatMap((kept) => [
        { label: `${kept.handle}: ${kept.title}`, kind: vscode.QuickPickItemKind.Separator },
        ...kept.parts.map((p) => ({
          label: p.id === 'structured' ? 'Structured content' : `Part ${p.id}`,
          description: `${p.chars.toLocaleString('en-US')} characters, ${formatBytes(p.bytes.length)}`,
          uri: resultPartUri(kept.handle, p),
        })),
        ...(kept.modelText !== undefined
          ? [
              {
                label: 'What the model was given',
                description: `${kept.modelText.length.toLocaleString('en-US')} characters`,
                uri: modelPreviewUri(kept.handle),
              },
            ]
          : []),
      ]);
    if (items.length === 0) {
      void vscode.window.showInformationMessage(
        "No large agent result is kept in this session: a result that fits the model's budget (mcpHost.agents.maxResultCharacters) is given whole.",
      );
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(items, {
      title: 'Open a large result given to a chat agent',
      placeHolder: 'Each opens read-only; save it to keep it',
    });
    return picked && 'uri' in picked ? vscode.window.showTextDocument(vscode.Uri.parse(picked.uri), { preview: false }) : undefined;
  }

  keep(title: string, parts: Parameters<KeptResults['keep']>[1]): KeptResult | undefined {
    return this.store.keep(title, parts);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const at = parseResultPartPath(uri.path);
    const kept = at && this.store.get(at.handle);
    if (at?.part === 'preview' && kept?.modelText !== undefined) return kept.modelText;
    const part = kept?.parts.find((p) => p.id === at?.part);
    if (!part)
      return `This result is no longer kept (${uri.toString()}): at most the last ${this.store.size || 'few'} results of this session are kept in memory. Run the tool again.`;
    return part.bytes.toString('utf8');
  }

  /** A range of a kept part: a header saying what was read, and the text exactly as in the original. */
  read(input: ReadResultInput | undefined, maxChars: number): vscode.LanguageModelToolResult {
    const i = input ?? {};
    if (typeof i.handle !== 'string') throw new Error('Give "handle" (a string such as "r1"), as named in the result\'s preview.');
    const kept = this.store.get(i.handle);
    if (!kept)
      throw new Error(
        `No kept result has the handle "${i.handle}" (results are kept in memory for this session, the most recent ones only). Call the tool again.`,
      );
    const partId = i.part === undefined ? kept.parts[0]?.id : String(i.part);
    const part = kept.parts.find((p) => p.id === partId);
    if (!part)
      throw new Error(`The result "${kept.handle}" has no readable part "${String(i.part)}". Its parts: ${kept.parts.map((p) => p.id).join(', ') || 'none'}.`);
    const [startLine, endLine, startByte, endByte] = (['startLine', 'endLine', 'startByte', 'endByte'] as const).map((k) => optionalNumber(i, k));
    const byBytes = startByte !== undefined || endByte !== undefined;
    if (byBytes && (startLine !== undefined || endLine !== undefined))
      throw new Error('Give either lines ("startLine", "endLine") or bytes ("startByte", "endByte"), not both.');
    const range: RangeRequest = byBytes
      ? { unit: 'bytes', start: startByte ?? 0, ...(endByte !== undefined ? { end: endByte } : {}) }
      : { unit: 'lines', start: startLine ?? 1, ...(endLine !== undefined ? { end: endLine } : {}) };
    const r = readRange(part, range, maxChars);
    const what =
      r.unit === 'lines'
        ? `lines ${r.start}-${r.end} of ${r.total} (bytes ${r.byteStart}-${r.byteEnd} of ${part.bytes.length})`
        : `bytes ${r.start}-${r.end} of ${r.total} (end excluded)`;
    const next =
      r.byteEnd < part.bytes.length
        ? ` To go on: "startByte": ${r.byteEnd}${r.unit === 'lines' && r.end < r.total && !r.cut?.startsWith('line') ? ` or "startLine": ${r.end + 1}` : ''}.`
        : ' This is the end of the part.';
    const header = `Result "${kept.handle}" part ${part.id} (${kept.title}), ${what}${r.cut ? `; ${r.cut}` : ''}.${next} The next text part is the range exactly as in the original.`;
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(header), new vscode.LanguageModelTextPart(r.text)]);
  }

  uriOf(kept: KeptResult, partId: string): vscode.Uri | undefined {
    const part = kept.parts.find((p) => p.id === partId);
    return part ? vscode.Uri.parse(resultPartUri(kept.handle, part)) : undefined;
  }

  dispose(): void {
    this.store.clear();
  }
}
