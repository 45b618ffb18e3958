// The shapes of the MCP Registry API (v0.1) the host reads: a server's `server.json` and the registry's own
// metadata about it. Only the fields the host uses are typed; everything comes from the network and is checked
// by parse.ts before it reaches these types.

/** An input of server.json (`Input`): a value the user may be asked for. */
export interface RegistryInput {
  description?: string;
  isRequired?: boolean;
  format?: 'string' | 'number' | 'boolean' | 'filepath';
  /** A fixed value (not configurable by the user); `{name}` refers to `variables`. */
  value?: string;
  isSecret?: boolean;
  default?: string;
  placeholder?: string;
  choices?: string[];
  variables?: Record<string, RegistryInput>;
}

export interface RegistryArgument extends RegistryInput {
  type: 'positional' | 'named';
  /** named: the flag with its dashes (`--port`). */
  name?: string;
  /** positional: the argument's label. */
  valueHint?: string;
  isRepeated?: boolean;
}

/** An environment variable or an HTTP header. */
export interface RegistryKeyValue extends RegistryInput {
  name: string;
}

export interface RegistryTransport {
  type: 'stdio' | 'streamable-http' | 'sse';
  url?: string;
  headers?: RegistryKeyValue[];
  variables?: Record<string, RegistryInput>;
}

export interface RegistryPackage {
  /** npm, pypi, oci, nuget, mcpb, or another registry the host does not know. */
  registryType: string;
  registryBaseUrl?: string;
  identifier: string;
  version?: string;
  fileSha256?: string;
  runtimeHint?: string;
  transport: RegistryTransport;
  runtimeArguments: RegistryArgument[];
  packageArguments: RegistryArgument[];
  environmentVariables: RegistryKeyValue[];
}

export interface RegistryRepository {
  url: string;
  source?: string;
  subfolder?: string;
}

export interface RegistryServer {
  /** Reverse-DNS name, `namespace/name`. */
  name: string;
  description: string;
  title?: string;
  version: string;
  repository?: RegistryRepository;
  websiteUrl?: string;
  packages: RegistryPackage[];
  remotes: RegistryTransport[];
}

export type RegistryStatus = 'active' | 'deprecated' | 'deleted';

/** One server version as the registry lists it: `server.json` plus the registry's metadata. */
export interface RegistryEntry {
  server: RegistryServer;
  status: RegistryStatus;
  statusMessage?: string;
  isLatest?: boolean;
  publishedAt?: string;
  updatedAt?: string;
}

export interface RegistryPage {
  entries: RegistryEntry[];
  /** Absent on the last page. */
  nextCursor?: string;
  /** Entries of the page that were not valid server.json and were left out, with why (the first few). */
  skipped: string[];
}
