// Words and icons for a server's state, used by the Servers tree and the status bar.
// No `vscode` import: tested in plain Node.

import { ConnectionState } from '../../core/connection/types';
import { oneLine } from '../../shared/format';

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
        icon: 'circle-filled',
        color: 'testing.iconPassed',
        description: signedInAs ? `signed in as ${signedInAs}` : 'running',
        tooltip: `Running (protocol ${state.protocolVersion ?? state.era})${signedInAs ? `, signed in as ${signedInAs}` : ''}`,
      };
    case 'starting':
      return { icon: 'loading~spin', description: 'starting…', tooltip: 'Starting' };
    case 'stopped':
      return { icon: 'circle-outline', description: 'stopped', tooltip: 'Stopped: starts on first use' };
    case 'error':
      if (state.signIn) {
        return {
          icon: 'account',
          color: 'list.warningForeground',
          description: state.signIn === 'failed' ? 'sign-in failed' : 'needs sign-in',
          tooltip: `Sign-in: ${state.reason}`,
        };
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

/** Servers of a workspace that wait for the user's decision before they start. */
export interface WaitingServers {
  names: readonly string[];
  /** The workspace is in Restricted Mode: they start only once the workspace is trusted. */
  restricted: boolean;
}

/**
 * The status bar text: `$(plug) 2`, `$(plug) 2 $(error) 1`, and the servers waiting for trust
 * (`$(plug) 0 $(workspace-untrusted) 3 need your trust`); undefined hides the item.
 */
export function statusBarText(
  states: readonly ConnectionState[],
  waiting: WaitingServers = { names: [], restricted: false },
): { text: string; tooltip: string } | undefined {
  if (states.length === 0) return undefined;
  const running = states.filter((s) => ConnectionState.isRunning(s)).length;
  const failed = states.filter((s) => ConnectionState.hasFailed(s)).length;
  const count = waiting.names.length;
  const needs = count === 1 ? 'needs your trust' : 'need your trust';
  const text = `$(plug) ${running}${failed > 0 ? ` $(error) ${failed}` : ''}${count > 0 ? ` $(workspace-untrusted) ${count} ${needs}` : ''}`;
  let tooltip = `MCP servers: ${running} running${failed > 0 ? `, ${failed} failed` : ''}, ${states.length} configured`;
  if (count > 0) {
    const listed = waiting.names.slice(0, 5).join(', ') + (count > 5 ? ` and ${count - 5} more` : '');
    tooltip += waiting.restricted
      ? `. Not started: ${listed}. The workspace is in Restricted Mode: trust the workspace to start its servers.`
      : `. Waiting for your trust: ${listed}. Each asks before its first start (MCP: Run Tool… or the MCP view).`;
  }
  return { text, tooltip };
}

/** What starting a stopped server asks the user, or why it cannot start in this window. */
export interface StartQuestions {
  /** A workspace definition not trusted yet: the trust question comes first. */
  trust: boolean;
  /** A workspace definition in Restricted Mode: it does not start. */
  restricted: boolean;
  /** Some `${input:…}` has no stored value: the inputs form comes next. */
  inputs: boolean;
}

/** What a Start row says starting involves: "asks for your trust, then its inputs"; undefined when it asks nothing. */
export function describeStartQuestions(q: StartQuestions): string | undefined {
  if (q.restricted) return 'Restricted Mode: trust the workspace first';
  if (q.trust && q.inputs) return 'asks for your trust, then its inputs';
  if (q.trust) return 'asks for your trust';
  if (q.inputs) return 'asks for its inputs';
  return undefined;
}

/** Why a configured server has not started: "not trusted yet, inputs needed"; undefined when nothing holds it back. */
export function describeNotStarted(q: StartQuestions): string | undefined {
  if (q.restricted) return 'Restricted Mode';
  const why = [q.trust ? 'not trusted yet' : '', q.inputs ? 'inputs needed' : ''].filter(Boolean).join(', ');
  return why || undefined;
}

/** A tool's line in the tree: its title (or name), and its description cut to one line for the tooltip's start. */
export function toolLabel(tool: { name: string; title?: string; annotations?: { title?: string } }): string {
  return oneLine(tool.title ?? tool.annotations?.title ?? tool.name);
}

/** A prompt's, resource's or template's label: its title, else its name, on one line. */
export function entryLabel(entry: { name: string; title?: string }): string {
  return oneLine(entry.title ?? entry.name);
}
