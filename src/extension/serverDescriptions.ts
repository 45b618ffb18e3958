// Words and icons for a server's state, used by the Servers tree and the status bar.
// No `vscode` import: tested in plain Node.

import type { ConnectionState } from '../core/connection';
import { oneLine } from '../shared/format';

export interface StateLook {
  /** A codicon id. */
  icon: string;
  /** A theme color id for the icon, when the state deserves one. */
  color?: string;
  /** Short text beside the server's name. */
  description: string;
  /** The tooltip's first line. */
  tooltip: string;
}

export function describeState(state: ConnectionState, signedInAs?: string): StateLook {
  switch (state.kind) {
    case 'running':
      return {
        icon: 'circle-filled', color: 'testing.iconPassed', description: signedInAs ? `signed in as ${signedInAs}` : 'running',
        tooltip: `Running (protocol ${state.protocolVersion ?? state.era})${signedInAs ? `, signed in as ${signedInAs}` : ''}`,
      };
    case 'starting':
      return { icon: 'loading~spin', description: 'starting…', tooltip: 'Starting' };
    case 'stopped':
      return { icon: 'circle-outline', description: 'stopped', tooltip: 'Stopped: starts on first use' };
    case 'error':
      if (state.signIn) {
        return { icon: 'account', color: 'list.warningForeground', description: state.signIn === 'failed' ? 'sign-in failed' : 'needs sign-in', tooltip: `Sign-in: ${state.reason}` };
      }
      return { icon: 'error', color: 'errorForeground', description: 'error', tooltip: `Error: ${state.reason}` };
    case 'crashed': {
      const how = state.signal ? `signal ${state.signal}` : state.exitCode !== null ? `exit code ${state.exitCode}` : 'no exit code';
      return { icon: 'warning', color: 'list.warningForeground', description: 'crashed', tooltip: `Crashed (${how}): ${state.reason}` };
    }
  }
}

/** `mcpServer.<state>`, plus `.http` for a remote server (it may sign in) and `.inputs` when it uses inputs (menus match on them). */
export function serverContextValue(state: ConnectionState, usesInputs: boolean, http = false): string {
  return `mcpServer.${state.kind}${http ? '.http' : ''}${usesInputs ? '.inputs' : ''}`;
}

/** The status bar text: `$(plug) 2` or `$(plug) 2 $(error) 1`; undefined hides the item. */
export function statusBarText(states: readonly ConnectionState[]): { text: string; tooltip: string } | undefined {
  if (states.length === 0) return undefined;
  const running = states.filter((s) => s.kind === 'running').length;
  const failed = states.filter((s) => s.kind === 'error' || s.kind === 'crashed').length;
  const text = `$(plug) ${running}${failed > 0 ? ` $(error) ${failed}` : ''}`;
  const tooltip = `MCP servers: ${running} running${failed > 0 ? `, ${failed} failed` : ''}, ${states.length} configured`;
  return { text, tooltip };
}

/** A tool's line in the tree: its title (or name), and its description cut to one line for the tooltip's start. */
export function toolLabel(tool: { name: string; title?: string; annotations?: { title?: string } }): string {
  return oneLine(tool.title ?? tool.annotations?.title ?? tool.name);
}

/** A prompt's, resource's or template's label: its title, else its name, on one line. */
export function entryLabel(entry: { name: string; title?: string }): string {
  return oneLine(entry.title ?? entry.name);
}
