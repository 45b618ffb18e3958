// An MCP App's `ui/download-file`: the files it offers are listed to the person, who says yes, then picks
// where each goes (the save dialog, never overwriting without a yes). Embedded bytes are saved as sent; a
// resource link is read from the app's own server, and a file it names (SEP-2631) is downloaded and verified
// (size, sha-256) like any file output. Nothing is written without the person; one request at a time.
import * as vscode from 'vscode';
import { appDownloadItems, describeAppDownload, type AppDownloadItem } from '../../core/apps';
import type { ServerConnection } from '../../core/connection';
import { resourceContentsView } from '../../core/results';
import { oneLine } from '../../shared/format';
import { saveResultItem } from '../panels/resultActions';

export class AppDownloads {
  private busy = false;

  constructor(
    private readonly app: { server: string; tool: string },
    private readonly connect: () => Promise<ServerConnection>,
  ) {}

  /** The number of files saved; 0 when the person said no or backed out of every dialog. */
  async request(contents: unknown): Promise<{ saved: number }> {
    const plan = appDownloadItems(contents);
    if ('refused' in plan) {
      void vscode.window.showWarningMessage(`The app of "${oneLine(this.app.tool)}" (${this.app.server}) asked to download files: ${plan.refused}.`);
      throw new Error(plan.refused);
    }
    if (this.busy) throw new Error('a download the app asked for is still waiting for an answer');
    this.busy = true;
    try {
      const list = plan.items.map(describeAppDownload);
      const choice = await vscode.window.showInformationMessage(
        `The app of "${oneLine(this.app.tool)}" (${this.app.server}) offers ${list.length === 1 ? 'a file' : `${list.length} files`} to save.`,
        { modal: true, detail: `${list.join('\n')}\n\nYou choose where each one is saved.` },
        'Save…',
      );
      if (choice !== 'Save…') return { saved: 0 };
      let saved = 0;
      for (const item of plan.items) if (await this.save(item)) saved++;
      return { saved };
    } finally {
      this.busy = false;
    }
  }

  private async save(item: AppDownloadItem): Promise<boolean> {
    if (item.kind === 'embedded') return (await saveResultItem(item.result, item.save)) !== undefined;
    // A link: read from the app's own server (bounded like every answer), then saved as the resource's contents.
    const connection = await this.connect();
    const read = await connection.readResource(item.uri);
    const result = { content: (read.contents ?? []).map((resource) => ({ type: 'resource', resource })) };
    let saved = false;
    for (const [i, view] of resourceContentsView(read).entries()) {
      // Blobs and files (SEP-2631: verified download) come with a save item; a text the view keeps whole does not.
      const resource = read.contents?.[i];
      const save =
        'save' in view && view.save
          ? view.save
          : resource && 'text' in resource && typeof resource.text === 'string'
            ? {
                ref: `content/${i}`,
                name: i === 0 ? item.name : `${item.name}-${i + 1}`,
                source: 'inline' as const,
                size: Buffer.byteLength(resource.text, 'utf8'),
                ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
              }
            : undefined;
      if (save && (await saveResultItem(result, save, () => Promise.resolve(connection)))) saved = true;
    }
    return saved;
  }
}
