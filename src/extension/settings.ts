// The extension's settings (`mcpHost.*`), read in one place.
import * as vscode from 'vscode';
import type { TransportKind } from '../core/config';
import { DEFAULT_MAX_DOWNLOAD_BYTES, inlineLimitsFor, type InlineLimits } from '../core/files';
import { byteLimit, MiB } from '../core/io/limits';
import type { EncodeSettings } from '../core/run';

export interface HostSettings {
  autoStart: boolean;
  confirmEveryCall: boolean;
  legacyNameParameter: boolean;
  advertiseFileInputs: boolean;
  binaryUploads: boolean;
  /** 0: no limit. */
  requestTimeoutMs: number;
  /** The largest message a server may send (a stdio line, an HTTP body, an SSE event). */
  maxMessageBytes: number;
  trace: boolean;
  /** Start servers defined in a (trusted) workspace without asking first. */
  trustWorkspaceServers: boolean;
  /** SEP-2631 out-of-band file transfer (the `files` capability, uploads and file-output downloads). */
  fileTransfer: boolean;
  /** Tools that may run as tasks are called as tasks when the server supports them (else a plain call). */
  optionalToolsAsTasks: boolean;
  /** The most bytes saved of a downloaded file whose size the server does not state. */
  maxDownloadBytes: number;
}

export function readSettings(): HostSettings {
  const c = vscode.workspace.getConfiguration('mcpHost');
  return {
    autoStart: c.get<boolean>('autoStart', false),
    confirmEveryCall: c.get<boolean>('confirmEveryCall', false),
    legacyNameParameter: c.get<boolean>('files.legacyNameParameter', false),
    advertiseFileInputs: c.get<boolean>('files.advertiseFileInputs', false),
    binaryUploads: c.get<boolean>('elicitation.binaryUploads', true),
    requestTimeoutMs: Math.max(0, c.get<number>('requestTimeoutSeconds', 300)) * 1000,
    maxMessageBytes: Math.min(1024, Math.max(1, c.get<number>('maxMessageMiB', 32))) * 1024 * 1024,
    trace: c.get<boolean>('trace', false),
    trustWorkspaceServers: c.get<boolean>('trustWorkspaceServers', false),
    fileTransfer: c.get<boolean>('files.transfer', true),
    optionalToolsAsTasks: c.get<boolean>('tasks.optionalToolsAsTasks', true),
    maxDownloadBytes: byteLimit(c.get<number>('files.maxDownloadMiB', DEFAULT_MAX_DOWNLOAD_BYTES / MiB) * MiB, DEFAULT_MAX_DOWNLOAD_BYTES),
  };
}

/**
 * How many bytes a file may have to travel inline to a server on this transport. Only values the user set
 * are passed on, so a refusal names the real reason (the SDK's limit) unless the user changed it.
 */
export function inlineLimitsFromSettings(transport: TransportKind): InlineLimits {
  const c = vscode.workspace.getConfiguration('mcpHost.files');
  const userSet = (key: string, userOnly = false): number | undefined => {
    const i = c.inspect<number>(key);
    // The ceilings are machine-scoped: a workspace may not raise what is sent (VS Code ignores it there too).
    return userOnly ? i?.globalValue : i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
  };
  return inlineLimitsFor(transport, {
    stdioMaxBytes: userSet('stdioMaxBytes', true),
    httpMaxBytes: userSet('httpMaxBytes', true),
    warnAboveBytes: userSet('warnAboveBytes'),
    transfer: readSettings().fileTransfer ? { inlineUpToBytes: userSet('inlineUpToBytes') } : false,
  });
}

/** How the run pipeline encodes files for a server configured with this transport. */
export function encodeSettings(configured: TransportKind): EncodeSettings {
  return {
    legacyName: readSettings().legacyNameParameter,
    workspaceRoots: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
    serverIsLocalStdio: configured === 'stdio',
  };
}
