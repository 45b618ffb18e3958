// The Servers tree (activity bar "MCP") and the status bar item with running/failed/waiting counts.

import * as vscode from 'vscode';
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
import { offeredToUser, toolAppUri } from '../../core/apps';
import type { ConfigError } from '../../core/config';
import { Disposable } from '../../core/events';
import { findFileSlots } from '../../core/files';
import { describeState, serverContextValue, entryLabel, statusBarText, toolLabel } from './serverDescriptions';
import { serverState, type ServerManager, type ServerServices } from './serverManager';
import { servesSkills, skillsOf } from './skills';
import { displayName, type SkillEntry } from '../../core/skills';
import type { ServerConnection } from '../../core/connection';
import { errorText } from '../../core/errors';
import { oneLine } from '../../shared/format';
import { SOURCE_LABELS, type DiscoverySourceId } from '../../core/discovery/sourceIds';
import type { DiscoveredServers } from './discoveredServers';
import type { SandboxRefusal } from '../../core/sandbox/refusals';
import { sandboxRefusalItem } from './sandboxRefusals';
import { isReplayNode, type ReplayNode, type ReplayTree } from '../replay/replayTree';
import { ConnectionState } from '../../core/connection/types';

export type ServerTreeNode =
  | { kind: 'server'; server: string }
  | { kind: 'group'; server: string; group: 'tools' | 'prompts' | 'resources' | 'resourceTemplates' }
  | { kind: 'tool'; server: string; tool: Tool }
  | { kind: 'refusedTool'; server: string; name: string; reason: string }
  | { kind: 'prompt'; server: string; prompt: Prompt }
  | { kind: 'resource'; server: string; resource: Resource }
  | { kind: 'template'; server: string; template: ResourceTemplate }
  | { kind: 'skillsGroup'; server: string }
  | { kind: 'skill'; server: string; skill: SkillEntry; label: string }
  | { kind: 'configError'; error: ConfigError }
  | { kind: 'discoveredSource'; source: DiscoverySourceId }
  | { kind: 'discoveredProblem'; source: DiscoverySourceId; message: string }
  | { kind: 'sandboxRefusal'; server: string; refusal: SandboxRefusal }
  | ReplayNode;

const GROUP_LABELS = { tools: 'Tools', prompts: 'Prompts', resources: 'Resources', resourceTemplates: 'Resource Templates' } as const;

/** What the view shows beside each server's state: its trust, whether it uses inputs, what its sandbox refused. */
export type ServersViewServices = Pick<ServerServices, 'serverTrust' | 'serverInputs' | 'sandboxRefusals'>;

export class ServersTreeProvider extends Disposable implements vscode.TreeDataProvider<ServerTreeNode> {
  private readonly changed = this.register(new vscode.EventEmitter<ServerTreeNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly skillLists = new WeakMap<ServerConnection, SkillEntry[]>();

  constructor(
    private readonly manager: ServerManager,
    private readonly services: ServersViewServices,
    private readonly discovered?: DiscoveredServers,
    private readonly replay?: ReplayTree,
  ) {
    super();
    this.register(manager.onDidChange(() => this.changed.fire(undefined)));
    this.register(services.sandboxRefusals.onDidChange(() => this.changed.fire(undefined)));
    if (replay) this.register(replay.onDidChange(() => this.changed.fire(undefined)));
  }

  getChildren(node?: ServerTreeNode): ServerTreeNode[] {
    if (!node) {
      const servers: ServerTreeNode[] = this.manager
        .list()
        .filter((s) => !this.discovered?.isDiscovered(s.name))
        .map((s) => ({ kind: 'server', server: s.name }));
      const errors: ServerTreeNode[] = this.manager.configErrors.map((error) => ({ kind: 'configError', error }));
      // Servers configured for other apps: a group per source turned on (discoveredServers.ts).
      const sources: ServerTreeNode[] = (this.discovered?.sources ?? [])
        .filter((r) => r.servers.length || r.problems.length)
        .map((r) => ({ kind: 'discoveredSource', source: r.source }));
      // With nothing configured the view stays empty, so its welcome (Add Server…) shows.
      const configured = [...errors, ...servers, ...sources];
      return configured.length ? [...configured, ...(this.replay?.roots() ?? [])] : [];
    }
    if (node.kind === 'discoveredSource') {
      return [
        ...(this.discovered?.serversOf(node.source) ?? [])
          .filter((e) => this.manager.get(e.definition.name))
          .map((e): ServerTreeNode => ({ kind: 'server', server: e.definition.name })),
        ...(this.discovered?.sources.find((r) => r.source === node.source)?.problems ?? []).map((message): ServerTreeNode => ({
          kind: 'discoveredProblem',
          source: node.source,
          message,
        })),
      ];
    }
    if (isReplayNode(node)) return this.replay?.children(node) ?? [];
    const connection = 'server' in node ? this.manager.get(node.server)?.connection : undefined;
    if (node.kind === 'server') {
      const refused = this.services.sandboxRefusals
        .of(node.server)
        .map((refusal): ServerTreeNode => ({ kind: 'sandboxRefusal', server: node.server, refusal }));
      if (!ConnectionState.isRunning(connection?.state)) return refused;
      const groups: ServerTreeNode[] = [{ kind: 'group', server: node.server, group: 'tools' }];
      if (connection.prompts.length > 0) groups.push({ kind: 'group', server: node.server, group: 'prompts' });
      if (connection.resources.length > 0) groups.push({ kind: 'group', server: node.server, group: 'resources' });
      if (connection.resourceTemplates.length > 0) groups.push({ kind: 'group', server: node.server, group: 'resourceTemplates' });
      if (servesSkills(connection)) groups.push({ kind: 'skillsGroup', server: node.server });
      return [...refused, ...groups];
    }
    // Listed when first expanded (skills/list only: no file of a skill is read until one is opened); the
    // tree refreshes once the listing arrives.
    if (node.kind === 'skillsGroup' && connection) {
      const listed = this.skillLists.get(connection);
      if (!listed) {
        void skillsOf(connection).then(
          (list) => {
            this.skillLists.set(connection, list.skills);
            this.changed.fire(node);
          },
          (e: unknown) => connection.log.warn(`skills/list: ${errorText(e)}`),
        );
        return [];
      }
      return listed.map((skill) => ({ kind: 'skill', server: node.server, skill, label: displayName(skill, listed) }));
    }
    if (node.kind === 'group' && connection) {
      // A tool only its app may call (visibility ["app"]) is not a tool for the user.
      if (node.group === 'tools') {
        return [
          ...connection.tools.filter(offeredToUser).map((tool): ServerTreeNode => ({ kind: 'tool', server: node.server, tool })),
          ...connection.refusedTools.map(({ name, reason }): ServerTreeNode => ({ kind: 'refusedTool', server: node.server, name, reason })),
        ];
      }
      if (node.group === 'prompts') return connection.prompts.map((prompt) => ({ kind: 'prompt', server: node.server, prompt }));
      if (node.group === 'resourceTemplates') return connection.resourceTemplates.map((template) => ({ kind: 'template', server: node.server, template }));
      return connection.resources.map((resource) => ({ kind: 'resource', server: node.server, resource }));
    }
    return [];
  }

  getTreeItem(node: ServerTreeNode): vscode.TreeItem {
    if (isReplayNode(node)) return this.replay!.item(node);
    switch (node.kind) {
      case 'configError': {
        const { file, line, column, message } = node.error;
        const where = `${vscode.workspace.asRelativePath(file)}:${line}:${column}`;
        const item = new vscode.TreeItem('Configuration error', vscode.TreeItemCollapsibleState.None);
        item.description = `${where}: ${message}`;
        item.tooltip = `${where}: ${message}`;
        item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
        const at = new vscode.Position(Math.max(0, line - 1), Math.max(0, column - 1));
        item.command = { command: 'vscode.open', title: 'Open', arguments: [vscode.Uri.file(file), { selection: new vscode.Range(at, at) }] };
        item.contextValue = 'mcpConfigError';
        return item;
      }
      case 'discoveredSource': {
        const result = this.discovered?.sources.find((r) => r.source === node.source);
        const item = new vscode.TreeItem(`From ${SOURCE_LABELS[node.source]}`, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `discovered\u0000${node.source}`;
        item.description = `${result?.servers.length ?? 0} found · read only`;
        item.tooltip = `Servers configured for ${SOURCE_LABELS[node.source]}, read from:\n${(result?.files ?? []).join('\n') || '(no file)'}\nEach asks for your trust before its first start. Import one to keep it in your own configuration.`;
        item.iconPath = new vscode.ThemeIcon('references');
        item.contextValue = 'mcpDiscoveredSource';
        return item;
      }
      case 'discoveredProblem': {
        const item = new vscode.TreeItem('Could not read', vscode.TreeItemCollapsibleState.None);
        item.description = node.message;
        item.tooltip = node.message;
        item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
        item.contextValue = 'mcpDiscoveredProblem';
        return item;
      }
      case 'server':
        return this.serverItem(node.server);
      case 'sandboxRefusal':
        return sandboxRefusalItem(node.refusal);
      case 'group': {
        const connection = this.manager.get(node.server)?.connection;
        const count = connection ? (node.group === 'tools' ? connection.tools.filter(offeredToUser) : connection[node.group]).length : 0;
        const item = new vscode.TreeItem(GROUP_LABELS[node.group], vscode.TreeItemCollapsibleState.Expanded);
        item.id = `${node.server}\u0000${node.group}`;
        item.description = String(count);
        item.contextValue = `mcpGroup.${node.group}`;
        return item;
      }
      case 'skillsGroup': {
        const item = new vscode.TreeItem('Skills', vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `${node.server}\u0000skills`;
        item.contextValue = 'mcpGroup.skills';
        return item;
      }
      case 'skill': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
        item.id = `${node.server}\u0000skill\u0000${node.skill.uri}`;
        item.description = node.skill.problem ? 'not loadable' : node.skill.description;
        item.tooltip = [node.skill.uri, node.skill.description, node.skill.problem].filter(Boolean).join('\n\n');
        item.iconPath = new vscode.ThemeIcon(node.skill.problem ? 'warning' : 'book');
        item.contextValue = 'mcpSkill';
        if (!node.skill.problem) item.command = { command: 'mcpHost.openSkill', title: 'Open Skill', arguments: [node.server, node.skill.uri] };
        return item;
      }
      case 'tool': {
        const hasFiles = findFileSlots(node.tool).slots.length > 0;
        const item = new vscode.TreeItem(toolLabel(node.tool), vscode.TreeItemCollapsibleState.None);
        item.id = `${node.server}\u0000tool\u0000${node.tool.name}`;
        const app = toolAppUri(node.tool);
        const name = toolLabel(node.tool) !== node.tool.name ? node.tool.name : undefined;
        item.description = app ? [name && oneLine(name), 'app'].filter(Boolean).join(' · ') : name && oneLine(name);
        const tooltip = node.tool.description ? `${node.tool.name}\n\n${node.tool.description.slice(0, 2000)}` : node.tool.name;
        item.tooltip = app ? `${tooltip}\n\nHas an interface (MCP App): ${app}` : tooltip;
        item.iconPath = new vscode.ThemeIcon(app ? 'window' : hasFiles ? 'file-binary' : 'tools');
        item.contextValue = `${hasFiles ? 'mcpTool.files' : 'mcpTool'}${app ? '.app' : ''}`;
        item.command = { command: 'mcpHost.runTool', title: 'Run Tool…', arguments: [node.server, node.tool.name] };
        return item;
      }
      case 'refusedTool': {
        // Listed by the server, refused by the host (a definition past its limits): shown with the reason, not runnable.
        const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.None);
        item.id = `${node.server}\u0000refusedTool\u0000${node.name}`;
        item.description = 'not offered';
        item.tooltip = `${node.name} is not offered: ${node.reason}`;
        item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
        item.contextValue = 'mcpRefusedTool';
        return item;
      }
      case 'prompt': {
        const item = new vscode.TreeItem(entryLabel(node.prompt), vscode.TreeItemCollapsibleState.None);
        item.id = `${node.server}\u0000prompt\u0000${node.prompt.name}`;
        item.tooltip = node.prompt.description?.slice(0, 2000) ?? node.prompt.name;
        item.iconPath = new vscode.ThemeIcon('comment-discussion');
        item.contextValue = 'mcpPrompt';
        item.command = { command: 'mcpHost.getPrompt', title: 'Get Prompt…', arguments: [node.server, node.prompt.name] };
        return item;
      }
      case 'resource': {
        const item = new vscode.TreeItem(entryLabel(node.resource), vscode.TreeItemCollapsibleState.None);
        item.id = `${node.server}\u0000resource\u0000${node.resource.uri}`;
        item.description = oneLine(node.resource.uri);
        item.tooltip = [node.resource.uri, node.resource.description?.slice(0, 2000)].filter(Boolean).join('\n\n');
        item.iconPath = new vscode.ThemeIcon('file-code');
        item.contextValue = 'mcpResource';
        item.command = { command: 'mcpHost.readResource', title: 'Read Resource', arguments: [node.server, node.resource.uri] };
        return item;
      }
      case 'template': {
        const item = new vscode.TreeItem(entryLabel(node.template), vscode.TreeItemCollapsibleState.None);
        item.id = `${node.server}\u0000template\u0000${node.template.uriTemplate}`;
        item.description = oneLine(node.template.uriTemplate);
        item.tooltip = [node.template.uriTemplate, node.template.description?.slice(0, 2000)].filter(Boolean).join('\n\n');
        item.iconPath = new vscode.ThemeIcon('symbol-variable');
        item.contextValue = 'mcpResourceTemplate';
        item.command = { command: 'mcpHost.openResourceTemplate', title: 'Open Resource Template…', arguments: [node.server, node.template.uriTemplate] };
        return item;
      }
    }
  }

  private serverItem(name: string): vscode.TreeItem {
    const server = this.manager.get(name);
    const state = server ? serverState(server) : { kind: 'stopped' as const };
    const look = describeState(state, server?.signedInAs);
    if (server && state.kind === 'stopped' && !this.services.serverTrust.isTrusted(server.definition)) {
      look.description = vscode.workspace.isTrusted ? 'needs your trust' : 'Restricted Mode';
      look.tooltip = vscode.workspace.isTrusted
        ? 'Not started: asks for your trust before its first start'
        : 'Not started: the workspace is in Restricted Mode';
    }
    const sandboxed = server?.definition.type === 'stdio' && server.definition.sandboxEnabled === true;
    if (sandboxed) {
      look.description = `${look.description} · sandboxed`;
      look.tooltip = `${look.tooltip}\nRuns in the sandbox`;
    }
    const refused = server ? this.services.sandboxRefusals.of(name).length > 0 : false;
    const item = new vscode.TreeItem(
      name,
      ConnectionState.isRunning(state)
        ? vscode.TreeItemCollapsibleState.Expanded
        : refused
          ? vscode.TreeItemCollapsibleState.Collapsed
          : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `${name}\u0000server\u0000${ConnectionState.isRunning(state) ? 'running' : refused ? 'refused' : 'idle'}`;
    item.description = look.description;
    item.iconPath = new vscode.ThemeIcon(look.icon, look.color ? new vscode.ThemeColor(look.color) : undefined);
    const def = server?.definition;
    const target = def ? (def.type === 'stdio' ? [def.command, ...def.args].join(' ') : def.url) : '';
    item.tooltip = [look.tooltip, target, def ? vscode.workspace.asRelativePath(def.file) : ''].filter(Boolean).join('\n');
    // Without this, screen readers announce the tooltip, which lacks the server's name.
    item.accessibilityInformation = { label: `${name}, ${look.description}` };
    const usesInputs = server ? this.services.serverInputs.uses({ server: server.definition, declared: server.declaredInputs }) : false;
    item.contextValue = `${serverContextValue(state, usesInputs, server?.definition.type !== 'stdio')}${this.discovered?.isDiscovered(name) ? '.discovered' : ''}`;
    return item;
  }
}

export function createStatusBarItem(manager: ServerManager): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('mcpHost.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'MCP Servers';
  item.command = 'mcpHost.servers.focus';
  const update = (): void => {
    const waiting = { names: manager.waitingForTrust().map((s) => s.name), restricted: !vscode.workspace.isTrusted };
    const look = statusBarText(manager.list().map(serverState), waiting);
    if (!look) return item.hide();
    item.text = look.text;
    item.tooltip = look.tooltip;
    // Spoken as the tooltip ("MCP servers: 1 running…") rather than the icon names of the text.
    item.accessibilityInformation = { label: look.tooltip };
    item.show();
  };
  update();
  const subscription = manager.onDidChange(update);
  return vscode.Disposable.from(item, subscription);
}
