// The extension's settings (`mcpHost.*`), read in one place.
import * as vscode from 'vscode';
import type { TransportKind } from '../core/config';
import { inlineLimitsFor, type InlineLimits } from '../core/files';
import type { EncodeSettings } from '../core/run';

export interface HostSettings {
  autoStart: boolean;
  confirmEveryCall: boolean;
  legacyNameParameter: boolean;
  advertiseFileInputs: boolean;
  binaryUploads: boolean;
  /** 0: no limit. */
  requestTimeoutMs: number;
  trace: boolean;
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
    trace: c.get<boolean>('trace', false),
  };
}

/**
 * How many bytes a file may have to travel inline to a server on this transport. Only values the user set
 * are passed on, so a refusal names the real reason (the SDK's limit) unless the user changed it.
 */
export function inlineLimitsFromSettings(transport: TransportKind): InlineLimits {
  const c = vscode.workspace.getConfiguration('mcpHost.files');
  const userSet = (key: string): number | undefined => {
    const i = c.inspect<number>(key);
    return i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
  };
  return inlineLimitsFor(transport, {
    stdioMaxBytes: userSet('stdioMaxBytes'),
    httpMaxBytes: userSet('httpMaxBytes'),
    warnAboveBytes: userSet('warnAboveBytes'),
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
