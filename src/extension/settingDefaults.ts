// Every setting of the extension (`mcpHost.<key>`) with its default: the one list settings.ts reads through, and
// the one a test holds package.json's `contributes.configuration` to (same keys, same defaults). No vscode here.
import { DEFAULT_HTTP_MAX_BYTES, DEFAULT_MAX_DOWNLOAD_BYTES, DEFAULT_STDIO_MAX_BYTES, DEFAULT_WARN_ABOVE_BYTES } from '../core/files';
import { DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_REQUEST_TIMEOUT_MS, MiB } from '../core/io/limits';
import { DEFAULT_REGISTRY_URL } from '../core/registry';

/** The bounds of `agents.maxResultCharacters`. */
export const RESULT_CHARACTERS = { default: 20_000, min: 2_000, max: 1_000_000 };

/** The settings as the user may write them (each reader still checks what it got: a settings file is not typed). */
export interface Settings {
  autoStart: boolean;
  'registry.url': string;
  'discovery.claudeDesktop': boolean;
  'discovery.claudeCode': boolean;
  'discovery.cursor': boolean;
  'discovery.windsurf': boolean;
  'discovery.copilotCli': boolean;
  'discovery.codex': boolean;
  trustWorkspaceServers: boolean;
  confirmEveryCall: boolean;
  /** The inline ceilings: only a value the user set is used (settings.ts `inlineLimitsFromSettings`). */
  'files.stdioMaxBytes': number;
  'files.httpMaxBytes': number;
  'files.warnAboveBytes': number;
  'files.legacyNameParameter': boolean;
  'files.transfer': boolean;
  'files.inlineUpToBytes': number | null;
  'files.maxDownloadMiB': number;
  'files.advertiseFileInputs': boolean;
  'elicitation.binaryUploads': boolean;
  'oauth.clientMetadataUrl': string;
  'oauth.accountProviders': Record<string, unknown>;
  maxMessageMiB: number;
  /** 0 is taken as the default: every request waits a bounded time. */
  requestTimeoutSeconds: number;
  'tasks.optionalToolsAsTasks': boolean;
  'sampling.autoApprove': string[];
  trace: boolean;
  'agents.enabled': boolean;
  'agents.excludedServers': string[];
  'agents.maxResultCharacters': number;
}

export type SettingKey = keyof Settings;

export const SETTING_DEFAULTS: Readonly<Settings> = {
  autoStart: false,
  'registry.url': DEFAULT_REGISTRY_URL,
  'discovery.claudeDesktop': false,
  'discovery.claudeCode': false,
  'discovery.cursor': false,
  'discovery.windsurf': false,
  'discovery.copilotCli': false,
  'discovery.codex': false,
  trustWorkspaceServers: false,
  confirmEveryCall: false,
  'files.stdioMaxBytes': DEFAULT_STDIO_MAX_BYTES,
  'files.httpMaxBytes': DEFAULT_HTTP_MAX_BYTES,
  'files.warnAboveBytes': DEFAULT_WARN_ABOVE_BYTES,
  'files.legacyNameParameter': false,
  'files.transfer': true,
  'files.inlineUpToBytes': null,
  'files.maxDownloadMiB': DEFAULT_MAX_DOWNLOAD_BYTES / MiB,
  'files.advertiseFileInputs': false,
  'elicitation.binaryUploads': true,
  'oauth.clientMetadataUrl': '',
  'oauth.accountProviders': {},
  maxMessageMiB: DEFAULT_MAX_MESSAGE_BYTES / MiB,
  requestTimeoutSeconds: DEFAULT_REQUEST_TIMEOUT_MS / 1000,
  'tasks.optionalToolsAsTasks': true,
  'sampling.autoApprove': [],
  trace: false,
  'agents.enabled': true,
  'agents.excludedServers': [],
  'agents.maxResultCharacters': RESULT_CHARACTERS.default,
};

/**
 * The settings a running server was started with: a change of one restarts the running servers (the others are
 * read at each use, or, for `trace`, applied to the logs at once).
 */
export const CONNECTION_SETTINGS: readonly SettingKey[] = [
  'files.advertiseFileInputs',
  'files.transfer',
  'elicitation.binaryUploads',
  'requestTimeoutSeconds',
  'maxMessageMiB',
];
