// The extension's settings (`mcpHost.*`), read in one place: every key and its default are in settingDefaults.ts.
import * as vscode from 'vscode';
import type { TransportKind } from '../core/config';
import { DEFAULT_MAX_DOWNLOAD_BYTES, inlineLimitsFor, type InlineLimits } from '../core/files';
import { byteLimit, DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_REQUEST_TIMEOUT_MS, MiB } from '../core/io/limits';
import type { EncodeSettings } from '../core/run';
import { RESULT_CHARACTERS, SETTING_DEFAULTS, type SettingKey, type Settings } from './settingDefaults';

export { CONNECTION_SETTINGS, type SettingKey } from './settingDefaults';

/** One setting as the user set it, else its default (VS Code merges the scopes; a value's type is not checked). */
export function setting<K extends SettingKey>(key: K, scope?: vscode.ConfigurationScope): Settings[K] {
  return vscode.workspace.getConfiguration('mcpHost', scope).get<Settings[K]>(key, SETTING_DEFAULTS[key]);
}

/** Whether a configuration change touches a setting (or, for a section like `discovery`, any of its settings). */
export function affectsSetting(e: vscode.ConfigurationChangeEvent, key: SettingKey | 'discovery'): boolean {
  return e.affectsConfiguration(`mcpHost.${key}`);
}

const positive = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback);

export interface HostSettings {
  autoStart: boolean;
  confirmEveryCall: boolean;
  legacyNameParameter: boolean;
  advertiseFileInputs: boolean;
  binaryUploads: boolean;
  /** Always bounded: a setting of 0 (or nonsense) is the default. */
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
  return {
    autoStart: setting('autoStart'),
    confirmEveryCall: setting('confirmEveryCall'),
    legacyNameParameter: setting('files.legacyNameParameter'),
    advertiseFileInputs: setting('files.advertiseFileInputs'),
    binaryUploads: setting('elicitation.binaryUploads'),
    requestTimeoutMs: positive(setting('requestTimeoutSeconds') * 1000, DEFAULT_REQUEST_TIMEOUT_MS),
    maxMessageBytes: Math.min(1024, Math.max(1, positive(setting('maxMessageMiB'), DEFAULT_MAX_MESSAGE_BYTES / MiB))) * MiB,
    trace: setting('trace'),
    trustWorkspaceServers: setting('trustWorkspaceServers'),
    fileTransfer: setting('files.transfer'),
    optionalToolsAsTasks: setting('tasks.optionalToolsAsTasks'),
    maxDownloadBytes: byteLimit(setting('files.maxDownloadMiB') * MiB, DEFAULT_MAX_DOWNLOAD_BYTES),
  };
}

export interface AgentSettings {
  enabled: boolean;
  excludedServers: string[];
  /** The most characters of one result's text given to a model; a larger result becomes a preview and a handle. */
  maxResultCharacters: number;
}

export function readAgentSettings(): AgentSettings {
  const excluded: unknown = setting('agents.excludedServers');
  const characters = Math.floor(Number(setting('agents.maxResultCharacters'))) || RESULT_CHARACTERS.default;
  return {
    enabled: setting('agents.enabled'),
    excludedServers: Array.isArray(excluded) ? excluded.filter((s): s is string => typeof s === 'string') : [],
    maxResultCharacters: Math.min(RESULT_CHARACTERS.max, Math.max(RESULT_CHARACTERS.min, characters)),
  };
}

/**
 * How many bytes a file may have to travel inline to a server on this transport. Only values the user set
 * are passed on, so a refusal names the real reason (the SDK's limit) unless the user changed it.
 */
export function inlineLimitsFromSettings(transport: TransportKind): InlineLimits {
  const c = vscode.workspace.getConfiguration('mcpHost');
  const userSet = (
    key: 'files.stdioMaxBytes' | 'files.httpMaxBytes' | 'files.warnAboveBytes' | 'files.inlineUpToBytes',
    userOnly = false,
  ): number | undefined => {
    const i = c.inspect<number>(key);
    // The ceilings are machine-scoped: a workspace may not raise what is sent (VS Code ignores it there too).
    return userOnly ? i?.globalValue : (i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue);
  };
  return inlineLimitsFor(transport, {
    stdioMaxBytes: userSet('files.stdioMaxBytes', true),
    httpMaxBytes: userSet('files.httpMaxBytes', true),
    warnAboveBytes: userSet('files.warnAboveBytes'),
    transfer: readSettings().fileTransfer ? { inlineUpToBytes: userSet('files.inlineUpToBytes') } : false,
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
