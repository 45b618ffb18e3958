import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/client';
import type { AccountChoice } from './accountSignIn';
import { HostError } from '../errors';

/**
 * Where sign-in state lives: VS Code's SecretStorage in the extension, a file readable only by the user
 * (or memory) in the CLI. Values are opaque JSON strings; one key per server URL.
 */
export interface TokenStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** What is kept for one authorization server (issuer) of one MCP server. */
export interface IssuerRecord {
  tokens?: OAuthTokens & { issuer?: string; savedAt?: number };
  client?: OAuthClientInformationMixed & { issuer?: string };
  /** The DPoP key the tokens are bound to (RFC 9449), as StoredDpopKey. */
  dpopKey?: unknown;
}

/** The stored sign-in state of one MCP server: per issuer, and which issuer signed in last. */
export interface ServerAuthRecord {
  issuers: Record<string, IssuerRecord>;
  lastIssuer?: string;
  /** Signed in with an account of the host's (no token is kept: the provider hands out the session's). */
  account?: AccountChoice;
}

/** One browser sign-in, as the UI sees it. */
export interface SignInRequest {
  server: string;
  /** Checked already (checkAuthorizationUrl): HTTPS, or HTTP to this machine. */
  authorizationUrl: URL;
  authorizationHost: string;
  alreadyChosen?: boolean;
  /** How long the sign-in waits for the browser to come back, for the UI to say. */
  timeoutMs: number;
  /** Settles when the sign-in ends, either way. */
  ended: Promise<void>;
  /** Gives the sign-in up (the user cancelled it while it waits). */
  cancel(): void;
}

/** The host's part of an interactive sign-in: ask the user, then open the authorization URL. */
export interface SignInUi {
  /**
   * Opens `authorizationUrl` in a browser once the user agreed (the VS Code UI asks first, showing
   * `authorizationHost`, unless the user `alreadyChosen` the browser over an account). Throws
   * SignInCancelledError when the user declines.
   */
  openAuthorization(request: SignInRequest): Promise<void>;
}

/** Receives the authorization response (RFC 8252 loopback redirect, or a URI handler). */
export interface RedirectReceiver {
  /** The redirect_uri sent to the authorization server. */
  readonly redirectUrl: string;
  /** Resolves with the query of the redirect that carries `state`; rejects on a wrong state or timeout. */
  waitForRedirect(state: string, timeoutMs: number, signal?: AbortSignal): Promise<URLSearchParams>;
  /** Stops receiving and resolves once closed. */
  stop(): Promise<void>;
  /** Stops receiving, without waiting. */
  dispose(): void;
}

/**
 * How the host identifies itself to a server's authorization server, in the specification's order of
 * preference: a pre-registered client (clientId), a Client ID Metadata Document (clientMetadataUrl,
 * when the server supports them), Dynamic Client Registration otherwise.
 */
export interface OAuthClientSettings {
  clientId?: string;
  clientSecret?: string;
  /** PEM private key for `private_key_jwt` client authentication. */
  privateKeyPem?: string;
  /** JWS algorithm for the private key (default ES256). */
  signingAlgorithm?: string;
  /** Space-separated scopes to ask for instead of what the server advertises. */
  scope?: string;
  /**
   * `authorization_code` (default, interactive), `client_credentials` (machine to machine),
   * `jwt_bearer` (workload identity: `assertion` is the workload's JWT), `enterprise` (cross-app access:
   * an ID token from the organisation's identity provider is exchanged for an ID-JAG, then for a token).
   */
  grant?: OAuthGrant;
  assertion?: string;
  /** The authorization server the pre-registered credentials belong to; they are sent to no other. */
  issuer?: string;
  /**
   * The HTTPS URL of this client's metadata document (CIMD), set by whoever publishes it: offered as the
   * client id only once the host found this client's document there.
   */
  clientMetadataUrl?: string;
  idp?: { idToken: string; clientId: string; clientSecret?: string; issuer?: string; tokenEndpoint?: string };
}

export type OAuthGrant = 'authorization_code' | 'client_credentials' | 'jwt_bearer' | 'enterprise';

export const OAUTH_GRANTS: readonly OAuthGrant[] = ['authorization_code', 'client_credentials', 'jwt_bearer', 'enterprise'];

/** The server needs a sign-in and none can happen here (no terminal, no UI): stored tokens and client credentials did not serve. */
export class SignInRequiredError extends HostError {
  static override readonly brand: string = 'SignInRequiredError';
}

/** The user declined to sign in, or closed the flow. */
export class SignInCancelledError extends HostError {
  static override readonly brand: string = 'SignInCancelledError';
}

/** No answer came back from the browser in time. */
export class SignInTimedOutError extends SignInCancelledError {
  static override readonly brand: string = 'SignInTimedOutError';
}

/** The sign-in could not complete: a refused authorization server, a wrong `state`, an error from the authorization server. */
export class SignInFailedError extends HostError {
  static override readonly brand: string = 'SignInFailedError';
}
