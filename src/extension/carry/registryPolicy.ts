// Whether the MCP Registry may be browsed here: VS Code's own MCP policy decides when it says so. `chat.mcp.access`
// "none" turns every MCP server source off; `chat.mcp.gallery.enabled` set to false turns VS Code's own gallery
// off, and ours with it. That setting's default (false while VS Code's gallery is in preview) is not a choice
// anyone made, so only a value set in the settings counts.
import * as vscode from 'vscode';

/** The context key the registry's view, title button and palette entry are hidden by. */
export const REGISTRY_OFF_CONTEXT = 'mcpHost.registryOff';

export function galleryAllowed(): boolean {
  const chat = vscode.workspace.getConfiguration('chat.mcp');
  if (chat.get<string>('access') === 'none') return false;
  const gallery = chat.inspect<boolean>('gallery.enabled');
  return ![gallery?.globalValue, gallery?.workspaceValue, gallery?.workspaceFolderValue].includes(false);
}

/** Why browsing is off, for a message. */
export function galleryOffReason(): string {
  return vscode.workspace.getConfiguration('chat.mcp').get<string>('access') === 'none'
    ? 'Browsing MCP servers is turned off by the setting chat.mcp.access ("none").'
    : 'Browsing MCP servers is turned off by the setting chat.mcp.gallery.enabled (false).';
}

/** Keeps the context key in step with the settings. */
export function trackGalleryPolicy(): vscode.Disposable {
  const update = () => void vscode.commands.executeCommand('setContext', REGISTRY_OFF_CONTEXT, !galleryAllowed());
  update();
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('chat.mcp.access') || e.affectsConfiguration('chat.mcp.gallery.enabled')) update();
  });
}
