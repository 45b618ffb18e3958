// The `@mcp` chat participant, for people who drive MCP tools themselves from chat:
//   @mcp /tools                            lists the tools of the configured servers
//   @mcp /run <tool> [on <server>] #file:photo.png
//                                          opens the tool's panel with its file arguments filled from the
//                                          referenced files (checked there like picked files); the user runs it.

import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { findFileSlots } from '../../core/files';
import { pointer } from '../../core/forms';
import { errorText } from '../../core/errors';
import { RunPanel } from '../runPanel';
import type { ServerManager } from '../serverManager';
import { readAgentSettings } from './agentTools';

export const PARTICIPANT_ID = 'mcpHost.mcp';

/** The files a chat request refers to (`#file:…`, drag and drop), in order. */
function referencedFiles(request: vscode.ChatRequest): vscode.Uri[] {
  return request.references.flatMap((r) => {
    const value = r.value;
    if (value instanceof vscode.Uri) return value.scheme === 'file' ? [value] : [];
    if (value instanceof vscode.Location) return value.uri.scheme === 'file' ? [value.uri] : [];
    return [];
  });
}

/** The prompt without its references: what the user typed. */
function typedText(request: vscode.ChatRequest): string {
  let text = request.prompt;
  const ranges = request.references.flatMap((r) => (r.range ? [r.range] : [])).sort((a, b) => b[0] - a[0]);
  for (const [start, end] of ranges) text = text.slice(0, start) + text.slice(end);
  return text.replace(/#file:\S+/g, ' ').trim();
}

/** `tool`, `server/tool` or `tool on server`. */
export function parseRunTarget(text: string): { tool?: string; server?: string } {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length === 0) return {};
  const on = words.indexOf('on');
  if (on === 1 && words[2]) return { tool: words[0], server: words[2] };
  const [first] = words;
  const slash = first!.indexOf('/');
  return slash > 0 ? { server: first!.slice(0, slash), tool: first!.slice(slash + 1) } : { tool: first };
}

export class McpChatParticipant {
  constructor(private readonly manager: ServerManager, private readonly extensionUri: vscode.Uri) {}

  readonly handle: vscode.ChatRequestHandler = async (request, _context, stream) => {
    try {
      if (request.command === 'tools') return await this.tools(stream);
      if (request.command === 'run') return await this.run(request, stream);
      stream.markdown(new vscode.MarkdownString().appendText(
        'Use /tools to list the MCP tools, or /run <tool> [on <server>] with #file references to open a tool with those files in its file arguments.'));
    } catch (e) {
      stream.markdown(new vscode.MarkdownString().appendText(`MCP: ${errorText(e)}`));
    }
    return {};
  };

  private servers(): string[] {
    const excluded = readAgentSettings().excludedServers;
    return this.manager.list().map((s) => s.name).filter((n) => !excluded.includes(n));
  }

  private async tools(stream: vscode.ChatResponseStream): Promise<vscode.ChatResult> {
    const md = new vscode.MarkdownString();
    for (const server of this.servers()) {
      stream.progress(`Starting ${server}…`);
      try {
        const connection = await this.manager.start(server);
        md.appendText(`${server}:\n`);
        for (const tool of connection.tools) {
          const files = findFileSlots(tool).slots.map((s) => s.label);
          md.appendText(`  • ${tool.name}${files.length ? ` (files: ${files.join(', ')})` : ''}${tool.description ? ` — ${tool.description.split('\n')[0]}` : ''}\n`);
        }
      } catch (e) {
        md.appendText(`${server}: not available (${errorText(e)})\n`);
      }
    }
    stream.markdown(md.value ? md : new vscode.MarkdownString().appendText('No MCP servers are configured.'));
    return {};
  }

  private async findTool(target: { tool?: string; server?: string }): Promise<{ server: string; tool: Tool } | string> {
    if (!target.tool) return 'Name the tool: /run <tool> [on <server>] #file:…';
    const candidates = target.server ? [target.server] : this.servers();
    if (target.server && !this.servers().includes(target.server)) return `There is no MCP server named "${target.server}" available to chat.`;
    for (const server of candidates) {
      const connection = await this.manager.start(server).catch(() => undefined);
      const tool = connection?.tools.find((t) => t.name === target.tool);
      if (tool) return { server, tool };
    }
    return `No MCP server${target.server ? ` "${target.server}"` : ''} has a tool named "${target.tool}".`;
  }

  private async run(request: vscode.ChatRequest, stream: vscode.ChatResponseStream): Promise<vscode.ChatResult> {
    const found = await this.findTool(parseRunTarget(typedText(request)));
    if (typeof found === 'string') {
      stream.markdown(new vscode.MarkdownString().appendText(found));
      return {};
    }
    const { server, tool } = found;
    const files = referencedFiles(request);
    const slots = findFileSlots(tool).slots;
    const context = { manager: this.manager, extensionUri: this.extensionUri };
    // The referenced files fill the slots in order; a slot that takes several files takes the rest.
    let next = 0;
    const filled: string[] = [];
    await RunPanel.show(context, server, tool);
    for (const slot of slots) {
      if (next >= files.length) break;
      const take = slot.multiple ? files.slice(next) : files.slice(next, next + 1);
      next += take.length;
      await RunPanel.show(context, server, tool, { field: pointer(slot.path), paths: take.map((u) => u.fsPath) });
      filled.push(`${slot.label}: ${take.map((u) => vscode.workspace.asRelativePath(u)).join(', ')}`);
    }
    const md = new vscode.MarkdownString().appendText(`Opened ${tool.name} on ${server}`);
    md.appendText(filled.length ? ` with ${filled.join('; ')}. Check the form and press Run; the files are sent only then.` : '. Fill in the form and press Run.');
    if (next < files.length) md.appendText(` ${files.length - next} referenced file${files.length - next === 1 ? ' was' : 's were'} not used: the tool has no more file arguments.`);
    stream.markdown(md);
    return {};
  }
}

export function registerChatParticipant(context: vscode.ExtensionContext, manager: ServerManager): void {
  if (typeof vscode.chat?.createChatParticipant !== 'function') return;
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, new McpChatParticipant(manager, context.extensionUri).handle);
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
  context.subscriptions.push(participant);
}
