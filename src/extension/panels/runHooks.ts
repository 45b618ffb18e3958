// How the window runs a tool, for every caller: the tool panel and the palette (the person), the Explorer, chat
// agents (language-model tools) and an MCP App's tools/call. Each gets the same pipeline (core/run) with the same
// hooks: required URLs asked through the webview UI, the request timeout of the settings, files encoded for the
// server's transport (uploads through its transfer client), calls that must run as tasks made through the
// window's task registry, the run kept in the History, and the tool's SEP-3221 secure values.
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerConnection } from '../../core/connection';
import type { RunHooks } from '../../core/run';
import type { TaskInfo } from '../../core/tasks';
import type { Container } from '../activation/container';
import { WebviewElicitationUi } from './elicitationUi';
import { encodeSettings, readSettings } from '../settings';
import { startUploadProgress } from './uploadProgress';

/**
 * Who asked for the call: the person (panel, palette, Explorer, the test API), a chat agent, or a tool's MCP App
 * (its calls belong to the run that showed the app: they are not kept in the History on their own).
 */
export type RunCallerKind = 'person' | 'agent' | 'app';

/** What a caller adds to the window's hooks: its own progress, cancellation and task status. */
export type CallerHooks = Pick<RunHooks, 'onProgress' | 'signal' | 'waitForRetry'> & { onTaskStatus?: (task: TaskInfo) => void };

export interface WindowRunHooks {
  /** The hooks of one call of `tool` on `connection`. */
  forCall(connection: ServerConnection, tool: Tool, own?: CallerHooks): RunHooks;
  /**
   * The tool's secure values for a call that has no form to ask them in (an agent, an app, the test API): the
   * remembered and configured ones, or an error naming the command that sets them. Undefined when it takes none.
   */
  secureArguments(connection: ServerConnection, tool: Tool): Promise<Record<string, unknown> | undefined>;
}

export function runHooksFor(container: Container, caller: RunCallerKind): WindowRunHooks {
  return {
    forCall(connection, tool, own = {}) {
      const { onTaskStatus, ...hooks } = own;
      return {
        ...hooks,
        elicitation: new WebviewElicitationUi(container.extensionUri, connection.server.transport, connection.log),
        timeoutMs: readSettings().requestTimeoutMs || undefined,
        encode: { ...encodeSettings(connection.server.transport), uploader: connection.transfers },
        // A tool that must run as a task goes through the window's tasks (shown in the Tasks view).
        callTool: (_name, args, options) =>
          container.taskRegistry.callTool(connection, tool, args, { ...options, ...(onTaskStatus ? { onStatus: onTaskStatus } : {}) }),
        ...(caller === 'app' ? {} : { record: container.runHistory.recorder(caller) }),
        uploadProgress: async (uploads, outer) => {
          const progress = await startUploadProgress(uploads, outer);
          return {
            signal: progress.signal,
            report: (file, sent) => progress.report(file, sent),
            destination: (_file, host) => progress.destination(host),
            done: () => progress.done(),
          };
        },
      };
    },
    secureArguments: (connection, tool) => container.secureValues.forModel(connection.name, tool, connection),
  };
}
