import type { SandboxConfig } from './sandbox';
import type { SandboxPolicy } from '../sandbox/policy';

/** How the host talks to a server: a child process, Streamable HTTP, or legacy SSE. */
export type TransportKind = 'stdio' | 'http' | 'sse';

interface ServerDefinitionBase {
  /** The key of the server in `servers` / `mcpServers`. */
  name: string;
  /** The config file the server came from. */
  file: string;
  /** VS Code's `dev` block: the server is being developed (started with the window, traffic logged, watched, debugged). */
  dev?: DevModeConfig;
  /** SEP-3221: values for the secure parameters of the server's tools, by name (core/secureParams/config.ts). */
  secureArguments?: Record<string, unknown>;
}

/** How a stdio server is started under a debugger (`dev.debug`). */
export type DevDebugConfig = { type: 'node' } | { type: 'debugpy'; debugpyPath?: string };

/** A server entry's `dev` block, as VS Code's mcp.json has it. */
export interface DevModeConfig {
  /** Globs relative to the workspace folder (a leading `!` excludes); a change to a matching file restarts the server. */
  watch?: string[];
  /** stdio servers only. */
  debug?: DevDebugConfig;
}

export interface StdioServerDefinition extends ServerDefinitionBase {
  type: 'stdio';
  command: string;
  args: string[];
  /** `null` deletes the variable from the inherited environment. */
  env: Record<string, string | null>;
  envFile?: string;
  cwd?: string;
  /** `sandboxEnabled: true`: the server runs in the sandbox (src/core/sandbox). */
  sandboxEnabled?: boolean;
  /** Its `sandbox` block over the file's top-level one (see ./sandbox). */
  sandbox?: SandboxConfig;
}

/** A server entry's `oauth`: a client registered in advance with the server's authorization server (values may use variables). */
export interface ServerOAuthConfig {
  clientId?: string;
  /** Use `${input:ID}` with a password input: the value is then kept in SecretStorage and masked in logs. */
  clientSecret?: string;
  scope?: string;
  clientMetadataUrl?: string;
  /** The authorization server the client is registered with: its secret goes to no other. */
  issuer?: string;
}

export interface HttpServerDefinition extends ServerDefinitionBase {
  type: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  oauth?: ServerOAuthConfig;
}

export type ServerDefinition = StdioServerDefinition | HttpServerDefinition;

export interface InputDefinition {
  id: string;
  type: 'promptString' | 'pickString' | 'command';
  description?: string;
  default?: string;
  /** promptString: the value is a secret (masked, never logged). */
  password?: boolean;
  /** pickString: the choices. */
  options?: string[];
  /** command: the VS Code command to run and its arguments. */
  command?: string;
  args?: unknown;
}

export interface ConfigError {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  message: string;
  /** The server the error belongs to, when it is not a file-level error. */
  server?: string;
}

export interface ParsedConfig {
  servers: ServerDefinition[];
  inputs: InputDefinition[];
  errors: ConfigError[];
}

export interface VariableContext {
  workspaceFolder?: string;
  userHome?: string;
  /** The environment `${env:NAME}` reads and stdio servers inherit; defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Supplies the value of `${input:ID}`; `undefined` means the user gave none (resolution fails). */
  resolveInput?: (id: string, input: InputDefinition | undefined) => Promise<string | undefined>;
  /** The `inputs` declared next to the server, handed to `resolveInput`. */
  inputs?: InputDefinition[];
}

export interface ResolvedStdioServer {
  name: string;
  transport: 'stdio';
  command: string;
  args: string[];
  /** The complete environment of the child: inherited + envFile + env, with `null`s removed. */
  env: Record<string, string>;
  cwd?: string;
  /** Values substituted from secret inputs; the connection masks them in its log. */
  secrets?: string[];
  /** The entry's `secureArguments`, variables substituted. */
  secureArguments?: Record<string, unknown>;
  /** Present when the server runs in the sandbox: what it may do, defaults included, paths absolute. */
  sandbox?: SandboxPolicy;
}

export interface ResolvedHttpServer {
  name: string;
  transport: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  oauth?: ServerOAuthConfig;
  /** Values substituted from secret inputs; the connection masks them in its log. */
  secrets?: string[];
  /** The entry's `secureArguments`, variables substituted. */
  secureArguments?: Record<string, unknown>;
}

export type ResolvedServer = ResolvedStdioServer | ResolvedHttpServer;
