// SEP-3221 secure values in VS Code: asked once per server and workspace (the tool panel's secure section, or
// MCP: Edit Secure Values…), then remembered: secret-looking ones (`format: password`, `writeOnly`) in
// SecretStorage, the rest in the workspace state; never in settings, never in a webview message after they were
// typed, never in a log (the connection masks them). Values the server's entry in mcp.json sets
// (`secureArguments`) win and are not asked.

import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerConnection } from '../../core/connection';
import { buildForm, toPayload, type FormValues } from '../../core/forms';
import {
  isSecretProperty,
  missingSecureValues,
  secretPropertyNames,
  secureArgumentsFor,
  secureInputSchemaOf,
  securePropertyNames,
  type SecureArguments,
} from '../../core/secureParams';
import { secureSectionErrors, secureSectionSchema } from '../../core/secureParams/form';
import type { SecureSection } from '../../shared/protocol';
import { showFormDialog } from '../panels/formDialog';
import type { Container } from '../activation/container';
import type { ServerManager } from './serverManager';

const STATE_KEY = 'mcpHost.secureValues';

/** The workspace the values belong to (SecretStorage is shared by every window: its keys name the workspace). */
function workspaceKey(): string {
  return (vscode.workspace.workspaceFile ?? vscode.workspace.workspaceFolders?.[0]?.uri)?.toString() ?? 'no-workspace';
}

/** The secure values of the server's configuration (mcp.json `secureArguments`, variables resolved). */
function configuredOf(connection: Pick<ServerConnection, 'server'> | undefined): SecureArguments {
  return connection?.server.secureArguments ?? {};
}

export class SecureValues {
  constructor(private readonly context: vscode.ExtensionContext) {}

  private secretKey(server: string, name: string): string {
    return `${STATE_KEY}/${JSON.stringify([workspaceKey(), server, name])}`;
  }

  private plain(): Record<string, Record<string, unknown>> {
    return this.context.workspaceState.get<Record<string, Record<string, unknown>>>(STATE_KEY, {});
  }

  /** The remembered values of these names (secret ones from SecretStorage). */
  async remembered(server: string, names: readonly string[]): Promise<SecureArguments> {
    const plain = this.plain()[server] ?? {};
    const out: SecureArguments = {};
    for (const name of names) {
      if (Object.hasOwn(plain, name)) out[name] = plain[name];
      else {
        const secret = await this.context.secrets.get(this.secretKey(server, name));
        if (secret !== undefined) out[name] = secret;
      }
    }
    return out;
  }

  /** Remembers values for a tool's secure properties: secret-looking ones in SecretStorage, others in the workspace state. */
  async remember(server: string, tool: Tool, values: SecureArguments): Promise<void> {
    const schema = secureInputSchemaOf(tool);
    const all = { ...this.plain() };
    const plain = { ...(all[server] ?? {}) };
    for (const [name, value] of Object.entries(values)) {
      if (isSecretProperty(schema?.properties?.[name])) {
        await this.context.secrets.store(this.secretKey(server, name), typeof value === 'string' ? value : JSON.stringify(value));
        delete plain[name];
      } else {
        plain[name] = value;
        await this.context.secrets.delete(this.secretKey(server, name));
      }
    }
    all[server] = plain;
    await this.context.workspaceState.update(STATE_KEY, all);
  }

  /** Forgets every remembered secure value of a server in this workspace. */
  async forget(server: string, names: readonly string[]): Promise<void> {
    const all = { ...this.plain() };
    delete all[server];
    await this.context.workspaceState.update(STATE_KEY, all);
    for (const name of names) await this.context.secrets.delete(this.secretKey(server, name));
  }

  /** Where each remembered value is kept (for tests): never the value. */
  async storedIn(server: string, name: string): Promise<'secrets' | 'workspaceState' | undefined> {
    if (Object.hasOwn(this.plain()[server] ?? {}, name)) return 'workspaceState';
    return (await this.context.secrets.get(this.secretKey(server, name))) !== undefined ? 'secrets' : undefined;
  }

  /**
   * The tool's secure values for a call: the configuration's over the remembered ones, each of its schema type
   * (SecretStorage and variables give text).
   */
  async valuesFor(server: string, tool: Tool, connection: Pick<ServerConnection, 'server'> | undefined): Promise<SecureArguments> {
    const names = securePropertyNames(tool);
    return secureArgumentsFor(tool, { ...(await this.remembered(server, names)), ...configuredOf(connection) });
  }

  /** The tool panel's secure section: what is still to be given; remembered values are marked kept, never sent. */
  async section(server: string, tool: Tool, connection: Pick<ServerConnection, 'server'> | undefined): Promise<SecureSection | undefined> {
    const names = securePropertyNames(tool);
    if (names.length === 0) return undefined;
    const configured = new Set(Object.keys(secureArgumentsFor(tool, configuredOf(connection))));
    const kept = Object.keys(
      await this.remembered(
        server,
        names.filter((n) => !configured.has(n)),
      ),
    );
    const schema = secureSectionSchema(tool, new Set(kept), configured)!;
    // Everything set by the configuration: nothing to ask.
    if (Object.keys(schema.properties as object).length === 0) return undefined;
    const form = buildForm(schema);
    form.title = 'Secure values';
    form.description =
      `Set by you for "${server}" in this workspace and sent apart from the arguments; never shown to a model. ` +
      `${secretPropertyNames(tool).length ? "Secret ones are kept in VS Code's secret storage." : ''}`.trim();
    return { form, kept };
  }

  /**
   * A run's secure values: what was typed in the section (empty: keep the remembered value) over the remembered
   * ones, under the configuration's. Checked by the form engine; the typed ones are remembered when they pass.
   */
  async fromSection(
    server: string,
    tool: Tool,
    connection: Pick<ServerConnection, 'server'> | undefined,
    typed: FormValues | undefined,
  ): Promise<{ values: SecureArguments } | { errors: Record<string, string> }> {
    if (securePropertyNames(tool).length === 0) return { values: {} };
    const section = await this.section(server, tool, connection);
    const given = section ? toPayload(section.form, typed ?? {}) : {};
    const values = { ...(await this.valuesFor(server, tool, connection)), ...given };
    Object.assign(values, secureArgumentsFor(tool, configuredOf(connection)));
    const errors = secureSectionErrors(tool, values);
    if (Object.keys(errors).length > 0) return { errors };
    if (Object.keys(given).length > 0) await this.remember(server, tool, given);
    return { values };
  }

  /**
   * MCP: Edit Secure Values…: one form of the server's secure parameters (every tool's), remembered values left
   * out of it and optional. Returns whether anything was saved.
   */
  async edit(server: string, connection: ServerConnection, extensionUri: vscode.Uri, onProblem: (m: string) => void): Promise<boolean> {
    const tools = connection.tools.filter((t) => securePropertyNames(t).length > 0);
    if (tools.length === 0) {
      void vscode.window.showInformationMessage(`No tool of "${server}" declares secure values.`);
      return false;
    }
    // One form for the server: the properties of every tool's secure schema (the first declaration of a name wins).
    const properties: Record<string, unknown> = {};
    for (const tool of tools)
      for (const [name, p] of Object.entries(secureInputSchemaOf(tool)?.properties ?? {})) if (!Object.hasOwn(properties, name)) properties[name] = p;
    const union = { name: `${server} secure values`, inputSchema: { type: 'object' }, secureInputSchema: { type: 'object', properties } } as unknown as Tool;
    const section = await this.section(server, union, connection);
    if (!section) {
      void vscode.window.showInformationMessage(`Every secure value of "${server}" is set by its entry in mcp.json ("secureArguments").`);
      return false;
    }
    const answer = await showFormDialog({
      viewType: 'mcpHost.secureValues',
      title: `MCP: ${server} secure values`,
      extensionUri,
      model: section.form,
      values: {},
      init: (v) => ({ kind: 'inputs', heading: { title: `Secure values for ${server}`, server }, form: section.form, values: v }),
      onProblem,
    });
    if (answer.action !== 'accept') return false;
    const given = toPayload(section.form, answer.values);
    if (Object.keys(given).length > 0) await this.remember(server, union, given);
    return true;
  }

  /**
   * A model's call: the remembered (or configured) values, or a message telling the person what to set, naming
   * the command. A model never supplies them.
   */
  async forModel(server: string, tool: Tool, connection: ServerConnection): Promise<SecureArguments | undefined> {
    if (securePropertyNames(tool).length === 0) return undefined;
    const values = await this.valuesFor(server, tool, connection);
    const missing = missingSecureValues(tool, values);
    if (missing.length > 0) {
      // Their names stay out of what the model reads, as the schema does; the person finds them in the form.
      throw new Error(
        `The tool "${tool.name}" on "${server}" needs secure values that only the user sets, and some are not set yet. ` +
          `Ask the user to set them with the command "MCP: Edit Secure Values…" (or in the tool's panel) for "${server}", then call the tool again.`,
      );
    }
    return values;
  }
}

/** A command's server: given (a name, a tree node), or picked among the running servers whose tools declare secure values. */
async function serverFor(manager: ServerManager, arg: unknown, placeHolder: string): Promise<string | undefined> {
  if (typeof arg === 'string') return arg;
  if (typeof arg === 'object' && arg !== null && typeof (arg as { server?: unknown }).server === 'string') return (arg as { server: string }).server;
  const servers = manager
    .list()
    .filter((s) => s.connection?.tools.some((t) => securePropertyNames(t).length > 0))
    .map((s) => s.name);
  if (servers.length === 0) {
    void vscode.window.showInformationMessage('No running MCP server has tools with secure values (SEP-3221).');
    return undefined;
  }
  return vscode.window.showQuickPick(servers, { placeHolder });
}

/** MCP: Edit Secure Values… and MCP: Forget Secure Values. */
export function registerSecureValueCommands(window: Pick<Container, 'manager' | 'secureValues' | 'extensionUri'>): vscode.Disposable {
  const { manager } = window;
  return vscode.Disposable.from(
    vscode.commands.registerCommand('mcpHost.editSecureValues', async (arg?: unknown) => {
      const server = await serverFor(manager, arg, 'Edit the secure values of which MCP server?');
      if (!server) return;
      const connection = await manager.start(server);
      if (await window.secureValues.edit(server, connection, window.extensionUri, (m) => connection.log.warn(`secure values: ${m}`))) {
        void vscode.window.showInformationMessage(`The secure values for "${server}" are saved for this workspace.`);
      }
    }),
    vscode.commands.registerCommand('mcpHost.forgetSecureValues', async (arg?: unknown) => {
      const server = await serverFor(manager, arg, 'Forget the secure values of which MCP server?');
      if (!server) return;
      const names = [...new Set((manager.get(server)?.connection?.tools ?? []).flatMap((t) => securePropertyNames(t)))];
      await window.secureValues.forget(server, names);
      void vscode.window.showInformationMessage(`The secure values for "${server}" in this workspace are forgotten.`);
    }),
  );
}
