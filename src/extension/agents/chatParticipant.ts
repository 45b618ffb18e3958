// The `@mcp` chat participant, for people who drive MCP tools themselves from chat:
//   @mcp /tools                            lists the tools of the configured servers
//   @mcp /run <tool> [on <server>] #file:photo.png
//                                          opens the tool's panel with its file arguments filled from the
//                                          referenced files (checked there like picked files); the user runs it.
//   @mcp /skill [<skill> [on <server>]]    lists the servers' skills, or loads one (verified) into the conversation
// Any turn first gives what MCP Apps offered a model since the last one (ui/update-model-context).

import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { assignReferencedFiles, parseRunTarget } from '../../core/agents';
import { findFileSlots } from '../../core/files';
import { pointer } from '../../core/forms';
import { errorText } from '../../core/errors';
import { ToolPanel } from '../panels/toolPanel';
import type { Container } from '../activation/container';
import { serverState, type ServerManager } from '../servers/serverManager';
import { readAgentSettings } from '../settings';
import { ConnectionState } from '../../core/connection/types';

export const PARTICIPANT_ID = 'mcpHost.mcp';

/** Text from servers and files shown as text: every Markdown character escaped, line breaks kept. */
function plain(text: string): vscode.MarkdownString {
  return new vscode.MarkdownString(text.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, '\\$&').replace(/\n/g, '  \n'));
}

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

export class McpChatParticipant {
  private readonly manager: ServerManager;

  constructor(
    private readonly window: Container,
    private readonly skills?: { forChat(typed: string): Promise<{ text: string; document?: vscode.Uri }> },
  ) {
    this.manager = window.manager;
  }

  readonly handle: vscode.ChatRequestHandler = async (request, _context, stream) => {
    this.appContext(stream);
    try {
      if (request.command === 'tools') return await this.tools(request, stream);
      if (request.command === 'run') return await this.run(request, stream);
      if (request.command === 'skill' && this.skills) {
        const answer = await this.skills.forChat(typedText(request));
        if (answer.document) stream.reference(answer.document);
        stream.markdown(plain(answer.text));
        return {};
      }
      stream.markdown(
        plain('Use /tools to list the MCP tools, or /run <tool> [on <server>] with #file references to open a tool with those files in its file arguments.'),
      );
    } catch (e) {
      stream.markdown(plain(`MCP: ${errorText(e)}`));
    }
    return {};
  };

  /**
   * What tool panels' apps offered a model since the last turn (`ui/update-model-context`), each once, as text that
   * names the app and its server: it joins the conversation with this turn.
   */
  private appContext(stream: vscode.ChatResponseStream): void {
    for (const kept of this.window.appModelContexts.take()) {
      const cut = kept.cutChars ? `\n… (${kept.cutChars} more characters left out)` : '';
      stream.markdown(plain(`Context offered by the app ${kept.app} of the MCP server "${kept.server}" (untrusted):\n${kept.text}${cut}\n\n`));
    }
  }

  private servers(): string[] {
    const excluded = readAgentSettings().excludedServers;
    return this.manager
      .list()
      .map((s) => s.name)
      .filter((n) => !excluded.includes(n));
  }

  /** Running servers' tools; a stopped server is started when named (`/tools <server>`), as starting may ask for its inputs. */
  private async tools(request: vscode.ChatRequest, stream: vscode.ChatResponseStream): Promise<vscode.ChatResult> {
    const only = typedText(request).split(/\s+/).find(Boolean);
    if (only && !this.servers().includes(only)) {
      stream.markdown(plain(`There is no MCP server named "${only}" available to chat.`));
      return {};
    }
    let md = '';
    const stopped: string[] = [];
    for (const server of only ? [only] : this.servers()) {
      const managed = this.manager.get(server);
      let connection = managed && ConnectionState.isRunning(serverState(managed)) ? managed.connection : undefined;
      try {
        if (!connection && only) {
          stream.progress(`Starting ${server}…`);
          connection = await this.manager.start(server);
        }
      } catch (e) {
        md += `${server}: not available (${errorText(e)})\n`;
        continue;
      }
      if (!connection) {
        stopped.push(server);
        continue;
      }
      md += `${server}:\n`;
      for (const tool of connection.tools) {
        const files = findFileSlots(tool).slots.map((s) => s.label);
        md += `  • ${tool.name}${files.length ? ` (files: ${files.join(', ')})` : ''}${tool.description ? ` — ${tool.description.split('\n')[0]}` : ''}\n`;
      }
    }
    if (stopped.length) md += `Stopped: ${stopped.join(', ')} (/tools <server> starts one and lists its tools).`;
    stream.markdown(plain(md || 'No MCP servers are configured.'));
    return {};
  }

  private async findTool(target: { tool?: string; server?: string }): Promise<{ server: string; tool: Tool } | string> {
    if (!target.tool) return 'Name the tool: /run <tool> [on <server>] #file:…';
    if (target.server) {
      if (!this.servers().includes(target.server)) return `There is no MCP server named "${target.server}" available to chat.`;
      const tool = (await this.manager.start(target.server)).tools.find((t) => t.name === target.tool);
      return tool ? { server: target.server, tool } : `The MCP server "${target.server}" has no tool named "${target.tool}".`;
    }
    for (const server of this.servers()) {
      const managed = this.manager.get(server);
      const running = managed && ConnectionState.isRunning(serverState(managed)) ? managed.connection : undefined;
      const tool = running?.tools.find((t) => t.name === target.tool);
      if (tool) return { server, tool };
    }
    return `No running MCP server has a tool named "${target.tool}"; name its server: /run ${target.tool} on <server>.`;
  }

  private async run(request: vscode.ChatRequest, stream: vscode.ChatResponseStream): Promise<vscode.ChatResult> {
    const found = await this.findTool(parseRunTarget(typedText(request)));
    if (typeof found === 'string') {
      stream.markdown(plain(found));
      return {};
    }
    const { server, tool } = found;
    const files = referencedFiles(request);
    const { filled, unused } = assignReferencedFiles(findFileSlots(tool).slots, files);
    let panel = await ToolPanel.show(this.window, server, tool);
    const named: string[] = [];
    const refused: string[] = [];
    for (const { slot, files: uris } of filled) {
      const field = pointer(slot.path);
      panel = await ToolPanel.show(this.window, server, tool, { field, paths: uris.map((u) => u.fsPath) });
      const list = `${slot.label}: ${uris.map((u) => vscode.workspace.asRelativePath(u)).join(', ')}`;
      (panel.files.summaries()[field]?.length ? named : refused).push(list);
    }
    let md = `Opened ${tool.name} on ${server}`;
    md += named.length ? ` with ${named.join('; ')}. Check the form and press Run; the files are sent only then.` : '. Fill in the form and press Run.';
    if (refused.length) md += ` Refused (the panel says why): ${refused.join('; ')}.`;
    if (unused > 0) md += ` ${unused} referenced file${unused === 1 ? ' was' : 's were'} not used: the tool has no more file arguments.`;
    stream.markdown(plain(md));
    return {};
  }
}

export function registerChatParticipant(
  context: vscode.ExtensionContext,
  window: Container,
  skills?: ConstructorParameters<typeof McpChatParticipant>[1],
): McpChatParticipant {
  const handler = new McpChatParticipant(window, skills);
  if (typeof vscode.chat?.createChatParticipant !== 'function') return handler;
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, handler.handle);
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
  context.subscriptions.push(participant);
  return handler;
}
