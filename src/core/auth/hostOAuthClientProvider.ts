// The host's OAuthClientProvider: the SDK's auth() runs the flow (discovery, registration, PKCE, token
// requests, refresh, step-up); this class only keeps its state, asks the host to open the browser and
// receives the redirect.
import { randomBytes } from 'node:crypto';
import {
  createPrivateKeyJwtAuth,
  discoverOAuthProtectedResourceMetadata,
  DPOP_SUPPORTED_ALGS,
  DpopSession,
  type DpopAlg,
  requestJwtAuthorizationGrant,
  discoverAndRequestJwtAuthGrant,
  type AddClientAuthentication,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  type FetchLike,
  UnauthorizedError,
  extractWWWAuthenticateParams,
} from '@modelcontextprotocol/client';
import { AccountSignIn, type AccountSessions, type Challenge } from './accountSignIn';
import type { Logger } from '../log';
import { LoopbackRedirectReceiver } from './loopbackRedirectReceiver';
import { accountOf } from './tokenClaims';
import { importDpopKey, newDpopKey, type StoredDpopKey } from './dpopKeys';
import { authStoreKey, forgetServer, readAuthRecord } from './records';
import { checkClientMetadataDocument } from './clientMetadata';
import { loopbackPort, redirectRegistered } from './redirects';
import { checkAuthorizationUrl } from './urls';
import { describeRefusal, registerWithoutScopeIfRefused, scopesBeyond } from './registrationScope';
import {
  SignInFailedError,
  SignInRequiredError,
  SignInTimedOutError,
  type IssuerRecord,
  type OAuthClientSettings,
  type RedirectReceiver,
  type ServerAuthRecord,
  type SignInUi,
  type TokenStore,
} from './types';

/**
 * How long a browser sign-in may take before it is given up: an authorization server that shows an error
 * page, or a tab the person closed, never redirects back, and the sign-in ends then, saying so.
 */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;
/** The redirect path every receiver uses; a registration made with one port is reused with another (RFC 8252 §7.3). */
const PLACEHOLDER_REDIRECT = 'http://127.0.0.1/callback';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

const sameIssuer = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/** The URLs in authorization server metadata the host may open or fetch, and what each is called in messages. */
const METADATA_ENDPOINTS: ReadonlyArray<[string, string]> = [
  ['authorization_endpoint', 'authorization endpoint'],
  ['token_endpoint', 'token endpoint'],
  ['registration_endpoint', 'registration endpoint'],
  ['revocation_endpoint', 'revocation endpoint'],
  ['jwks_uri', 'JWKS URL'],
  ['pushed_authorization_request_endpoint', 'pushed authorization request endpoint'],
];

/** `5 min`, `90 s`: a time limit for messages. */
export const describeDuration = (ms: number) => (ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`);

/** Whether a WWW-Authenticate header carries a DPoP challenge (RFC 9449 §7.1), outside quoted parameter values. */
export function challengesDpop(header: string | null): boolean {
  if (!header) return false;
  return /(?:^|,)\s*dpop(?=\s|,|$)/i.test(header.replace(/"(?:[^"\\]|\\.)*"/g, '""'));
}

export interface HostOAuthClientProviderOptions {
  /** The server's name, for messages. */
  server: string;
  serverUrl: string;
  store: TokenStore;
  settings?: OAuthClientSettings;
  /** Absent: nobody can sign in here, and a needed sign-in is SignInRequiredError. */
  ui?: SignInUi;
  /** Where the redirect comes back; default a loopback listener on 127.0.0.1. */
  redirect?: (preferredPort?: number) => Promise<RedirectReceiver>;
  log: Logger;
  clientName?: string;
  signInTimeoutMs?: number;
  /** Says how to sign in where no UI can (the CLI names `mcp-host login`). */
  signInHint?: string;
  /** The host's accounts, offered where one of its authentication providers serves the authorization server. */
  accounts?: AccountSessions;
}

export class HostOAuthClientProvider implements OAuthClientProvider {
  readonly addClientAuthentication?: AddClientAuthentication;
  /** The client metadata document URL, once this run found it serving this client's document. */
  private servedMetadataUrl?: string;
  /** The transport's bounded fetch, checked (guardFetch): what the provider fetches itself goes through it too. */
  private fetch: FetchLike = globalThis.fetch;
  /** The MCP server answered a refusal with a DPoP challenge: it takes DPoP-bound tokens. */
  private dpopChallenged = false;
  private receiver?: RedirectReceiver;
  /** `stop` or `dispose` was called: no redirect receiver is started any more. */
  private ended = false;
  private verifier?: string;
  private expectedState?: string;
  private discovery?: OAuthDiscoveryState;
  private pending?: Promise<URLSearchParams | 'signed-in'>;
  private readonly accountSignIn?: AccountSignIn;
  /** The server's last refusal (401 / 403 and the scope it named), which the SDK keeps to itself. */
  private lastChallenge?: Challenge;
  private pendingAbort?: AbortController;
  /** Client registrations made in this flow, stored once a sign-in with them succeeds. */
  private readonly newClients = new Map<string, StoredOAuthClientInformation>();
  /** Between a redirect to the authorization server and the tokens it leads to. */
  private awaitingCallback = false;
  private issuer?: string;
  private resource?: string;
  private dpopSession?: Promise<DpopSession>;
  /** A DPoP key made in this run, stored with the first tokens bound to it. */
  private newDpopKey?: StoredDpopKey;
  private readonly settings: OAuthClientSettings;
  /** The client and scope of the authorization request the browser was sent with. */
  private authorization?: { clientId?: string; scope?: string };
  /** A stored registration was given up in this flow after the authorization server refused its scope. */
  private registeredAgainForScope = false;

  constructor(private readonly options: HostOAuthClientProviderOptions) {
    this.settings = options.settings ?? {};
    const s = this.settings;
    if (s.privateKeyPem) {
      if (!s.clientId) throw new SignInFailedError('a private key needs the client id it belongs to');
      const sign = createPrivateKeyJwtAuth({
        issuer: s.clientId,
        subject: s.clientId,
        privateKey: s.privateKeyPem,
        alg: s.signingAlgorithm ?? 'ES256',
      });
      this.addClientAuthentication = (...args) => {
        this.checkCredentialsDestination();
        return sign(...args);
      };
    }
    if (s.clientSecret) options.log.maskSecrets([s.clientSecret]);
    if (options.accounts && options.ui && !s.clientId && this.grant === 'authorization_code') {
      this.accountSignIn = new AccountSignIn(options.accounts, options.server, (secrets) => options.log.maskSecrets(secrets));
    }
  }

  /** The client metadata document URL the SDK offers as client id: only one found serving this client's document. */
  get clientMetadataUrl(): string | undefined {
    return this.servedMetadataUrl;
  }

  /**
   * Wraps the transport's fetch: every request to another origin than the MCP server's (the authorization
   * server's metadata, registration, token and revocation endpoints, wherever a redirect leads) must be
   * HTTPS or HTTP to this machine; the server's refusals are watched (their status and scope for the account
   * sign-in, a DPoP challenge for the choice of token type). The provider's own fetches go through it too.
   */
  guardFetch(fetch: FetchLike): FetchLike {
    const origin = new URL(this.options.serverUrl).origin;
    const guarded: FetchLike = async (url, init) => {
      const target = new URL(String(url));
      if (target.origin !== origin) checkAuthorizationUrl(target, this.options.server, 'URL to fetch');
      let response = await fetch(url, init);
      if (!response.ok && init?.method === 'POST' && this.isRegistrationEndpoint(target)) {
        response = await registerWithoutScopeIfRefused(fetch, url, init, response, this.options.log);
      }
      if ((response.status === 401 || response.status === 403) && target.origin === origin && !target.pathname.startsWith('/.well-known/')) {
        if (response.status === 401 && challengesDpop(response.headers.get('www-authenticate'))) this.dpopChallenged = true;
        const { scope } = extractWWWAuthenticateParams(response);
        this.lastChallenge = { status: response.status, ...(scope ? { scope } : {}) };
      }
      return response;
    };
    this.fetch = guarded;
    return guarded;
  }

  /** Where the SDK registers: the metadata's registration endpoint, else `/register` at the authorization server. */
  private isRegistrationEndpoint(target: URL): boolean {
    const d = this.discovery;
    if (!d) return false;
    const endpoint = d.authorizationServerMetadata?.registration_endpoint ?? new URL('/register', d.authorizationServerUrl).href;
    return new URL(endpoint).href === target.href;
  }

  private get grant() {
    return this.settings.grant ?? 'authorization_code';
  }
  private get interactive() {
    return this.grant === 'authorization_code';
  }

  /** Starts the redirect receiver when this host can sign in interactively (before the first connect). */
  async prepare(): Promise<void> {
    if (!this.interactive || !this.options.ui || this.receiver || this.ended) return;
    const registered = ((await this.storedClient()) as { redirect_uris?: string[] } | undefined)?.redirect_uris?.[0];
    const receiver = await (this.options.redirect ?? LoopbackRedirectReceiver.start)(loopbackPort(registered));
    // Ended while the receiver was being started: it is closed at once, not kept by a provider nobody uses.
    if (this.ended) receiver.dispose();
    else this.receiver = receiver;
  }

  /** Gives up a sign-in under way and closes the redirect receiver; resolves once it is closed. */
  async stop(): Promise<void> {
    const r = this.end();
    await r?.stop();
  }

  /** Gives up a sign-in under way and closes the redirect receiver, without waiting. */
  dispose(): void {
    this.end()?.dispose();
  }

  /** No receiver is started from here on; the one there was is handed to the caller to close. */
  private end(): RedirectReceiver | undefined {
    this.ended = true;
    this.cancelPendingSignIn();
    const r = this.receiver;
    this.receiver = undefined;
    return r;
  }

  get redirectUrl(): string | undefined {
    if (!this.interactive) return undefined;
    return this.receiver?.redirectUrl ?? PLACEHOLDER_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    const asMethods = this.discovery?.authorizationServerMetadata?.token_endpoint_auth_methods_supported;
    const grantTypes = this.interactive ? ['authorization_code', 'refresh_token'] : this.grant === 'client_credentials' ? ['client_credentials'] : [JWT_BEARER];
    return {
      client_name: this.options.clientName ?? 'MCP Host',
      redirect_uris: this.interactive ? [String(this.redirectUrl)] : [],
      grant_types: grantTypes,
      response_types: this.interactive ? ['code'] : [],
      // A public client where the authorization server allows one (the host keeps no secret of its own).
      ...(asMethods?.includes('none') ? { token_endpoint_auth_method: 'none' } : {}),
      ...(this.settings.scope ? { scope: this.settings.scope } : {}),
    };
  }

  state(): string {
    this.expectedState = randomBytes(32).toString('base64url');
    return this.expectedState;
  }

  private async record(): Promise<ServerAuthRecord> {
    return readAuthRecord(this.options.store, this.options.serverUrl);
  }

  private async update(change: (r: ServerAuthRecord) => void): Promise<void> {
    const r = await this.record();
    change(r);
    if (Object.keys(r.issuers).length === 0 && !r.account) await this.options.store.delete(authStoreKey(this.options.serverUrl));
    else await this.options.store.set(authStoreKey(this.options.serverUrl), JSON.stringify(r));
  }

  private entry(r: ServerAuthRecord, ctx?: OAuthClientInformationContext): IssuerRecord | undefined {
    const issuer = ctx?.issuer ?? r.lastIssuer;
    if (!issuer) return undefined;
    const key = Object.keys(r.issuers).find((k) => sameIssuer(k, issuer));
    return key ? r.issuers[key] : undefined;
  }

  private async storedClient() {
    return this.entry(await this.record())?.client;
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    // Asked before every token request: credentials go nowhere but to the authorization server they belong to.
    this.checkCredentialsDestination();
    // Before any registration: the authorization server may be one an account of the host's serves.
    if (this.accountSignIn && ctx?.issuer && !this.awaitingCallback) await this.signInWithAccount(ctx.issuer);
    const client = await this.registeredClient(ctx);
    if (!client) await this.considerClientMetadataDocument();
    return client;
  }

  /** Whether this client sends a credential of its own to the token endpoint (a secret, a key's assertion, a workload's or IdP's token). */
  private get sendsCredentials(): boolean {
    const s = this.settings;
    return Boolean(s.clientSecret || s.privateKeyPem || s.assertion || s.idp);
  }

  /**
   * A pre-registered client's credentials go only to endpoints named by metadata that was fetched from the
   * configured issuer's own origin and names exactly that issuer; without a configured issuer, to the
   * authorization server the MCP server names, whose metadata must name it (RFC 8414 §3.3, never waived here).
   */
  private checkCredentialsDestination(): void {
    if (!this.sendsCredentials) return;
    const server = this.options.server;
    const metadata = this.discovery?.authorizationServerMetadata;
    const fetchedFrom = this.discovery?.authorizationServerUrl;
    const refuse = (why: string) => new SignInFailedError(`${why}; the client credentials for server "${server}" are not sent there`);
    if (!metadata || !fetchedFrom) throw refuse(`the authorization server of server "${server}" published no metadata`);
    const configured = this.settings.issuer;
    if (configured) {
      if (metadata.issuer !== configured)
        throw refuse(`the authorization server's metadata names the issuer ${metadata.issuer}, not ${configured} (the configured issuer)`);
      if (new URL(fetchedFrom).origin !== new URL(configured).origin) {
        throw refuse(
          `the authorization server's metadata came from ${new URL(fetchedFrom).origin}, not from the configured issuer's origin ${new URL(configured).origin}`,
        );
      }
      return;
    }
    if (metadata.issuer !== fetchedFrom && `${metadata.issuer}/` !== fetchedFrom) {
      throw refuse(`the authorization server's metadata, fetched from ${new URL(fetchedFrom).origin}, names another issuer (${metadata.issuer})`);
    }
  }

  /**
   * Where the authorization server takes Client ID Metadata Documents and no client is registered, the
   * configured document URL is offered as the client id only when it serves this client's document;
   * otherwise the host registers (and the log says why).
   */
  private async considerClientMetadataDocument(): Promise<void> {
    this.servedMetadataUrl = undefined;
    const url = this.settings.clientMetadataUrl;
    const metadata = this.discovery?.authorizationServerMetadata;
    if (!url || !this.interactive || this.settings.clientId || metadata?.client_id_metadata_document_supported !== true) return;
    const verdict = await checkClientMetadataDocument(url, String(this.redirectUrl), this.fetch);
    if (verdict.serves) {
      this.servedMetadataUrl = url;
      return;
    }
    const instead = metadata.registration_endpoint
      ? 'registering with the authorization server instead'
      : 'and the authorization server takes no registrations';
    this.options.log.warn(`the client metadata document ${url} is not used: ${verdict.reason}; ${instead}`);
  }

  /**
   * Offers the host's account where one of its providers serves `issuer`; once a session serves, the flow
   * ends here (an UnauthorizedError the connection answers by sending the request again) and only the choice is stored.
   */
  private async signInWithAccount(issuer: string): Promise<void> {
    const record = await this.record();
    const choice = await this.accountSignIn!.signIn({
      issuer,
      chosen: record.account,
      challenge: this.lastChallenge,
      scopesSupported: this.discovery?.resourceMetadata?.scopes_supported,
    });
    if (!choice) return;
    await this.update((r) => {
      r.account = choice;
    });
    this.lastChallenge = undefined;
    this.options.log.info(
      `signed in with your ${choice.providerLabel} account ${choice.accountLabel}${choice.scopes.length ? ` (scopes ${choice.scopes.join(' ')})` : ''}`,
    );
    this.pending = Promise.resolve('signed-in');
    throw new UnauthorizedError(`signed in to server "${this.options.server}" with your ${choice.providerLabel} account; the request is sent again`);
  }

  private registeredClient(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> | StoredOAuthClientInformation | undefined {
    const s = this.settings;
    if (s.clientId) {
      if (s.issuer && ctx?.issuer && !sameIssuer(s.issuer, ctx.issuer)) {
        throw new SignInFailedError(
          `the client id for server "${this.options.server}" is registered with ${s.issuer}, but the server's authorization server is ${ctx.issuer}; its credentials are not sent there`,
        );
      }
      return {
        client_id: s.clientId,
        ...(s.clientSecret ? { client_secret: s.clientSecret } : {}),
        ...(s.issuer ? { issuer: s.issuer } : {}),
      };
    }
    const fresh = ctx?.issuer ? [...this.newClients].find(([k]) => sameIssuer(k, ctx.issuer))?.[1] : undefined;
    if (fresh) return fresh;
    return this.record().then((r) => {
      const entry = this.entry(r, ctx);
      const client = entry?.client;
      // A registration made for a redirect this host can no longer receive (a forwarded port that changed)
      // would be refused at the authorization server: the host registers again, unless a refresh token
      // (bound to that registration) can still serve without a browser.
      const uris = (client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
      if (
        this.interactive &&
        this.receiver &&
        !entry?.tokens?.refresh_token &&
        Array.isArray(uris) &&
        uris.length > 0 &&
        !redirectRegistered(this.receiver.redirectUrl, uris as string[])
      ) {
        this.options.log.info(`the stored client registration does not list the redirect ${this.receiver.redirectUrl}; registering again`);
        return undefined;
      }
      // A client registered for a smaller scope may be held to it (a step-up for more would be refused
      // invalid_scope): a new client is registered for the scope the server asks for now.
      const registeredScope = (client as { scope?: unknown } | undefined)?.scope;
      const beyond = scopesBeyond(registeredScope, this.lastChallenge?.scope);
      if (client && beyond.length > 0) {
        this.options.log.info(
          `the stored client registration is for the scope "${String(registeredScope)}", without ${beyond.join(' ')}; registering a new client for the larger scope`,
        );
        return undefined;
      }
      return client;
    });
  }

  /**
   * A registration is kept in memory until a sign-in with it succeeds (`saveTokens` stores the two together): a flow
   * that fails stores nothing. That holds too when it replaces a stored registration (one for a smaller scope): the
   * stored tokens' refresh token belongs to the stored client, and goes on serving with it.
   */
  async saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): Promise<void> {
    if (this.settings.clientId) return; // configured credentials stay where they were configured
    const issuer = ctx?.issuer ?? info.issuer;
    if (!issuer) return;
    if ('client_secret' in info && typeof info.client_secret === 'string') this.options.log.maskSecrets([info.client_secret]);
    this.newClients.set(issuer, info);
  }

  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const record = await this.record();
    const account = record.account;
    if (account && this.accountSignIn && (!ctx || sameIssuer(ctx.issuer, account.issuer))) {
      const token = await this.accountSignIn.token(account);
      return token ? { access_token: token, token_type: 'Bearer', ...(account.scopes.length ? { scope: account.scopes.join(' ') } : {}) } : undefined;
    }
    const tokens = this.entry(record, ctx)?.tokens;
    if (tokens) this.mask(tokens);
    return tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    if (typeof tokens.access_token !== 'string' || tokens.access_token === '') {
      throw new SignInFailedError(`the authorization server of server "${this.options.server}" answered without an access token; nothing was stored`);
    }
    this.mask(tokens);
    this.awaitingCallback = false;
    const issuer = ctx?.issuer ?? tokens.issuer ?? this.issuer;
    if (!issuer) return;
    const client = [...this.newClients].find(([k]) => sameIssuer(k, issuer))?.[1];
    await this.update((r) => {
      const dpopKey = String(tokens.token_type).toLowerCase() === 'dpop' ? this.newDpopKey : undefined;
      r.issuers[issuer] = { ...r.issuers[issuer], ...(client ? { client } : {}), ...(dpopKey ? { dpopKey } : {}), tokens: { ...tokens, savedAt: Date.now() } };
      r.lastIssuer = issuer;
      delete r.account;
    });
    this.newClients.clear();
    this.registeredAgainForScope = false;
    const account = accountOf(tokens);
    this.options.log.info(`signed in at ${new URL(issuer).host}${account ? ` as ${account}` : ''}`);
  }

  private mask(tokens: StoredOAuthTokens): void {
    this.options.log.maskSecrets([tokens.access_token, tokens.refresh_token, tokens.id_token].filter((t): t is string => typeof t === 'string'));
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const server = this.options.server;
    checkAuthorizationUrl(authorizationUrl, server, 'authorization URL');
    const host = authorizationUrl.host;
    const metadata = this.discovery?.authorizationServerMetadata;
    // The SDK refuses a server that lists code_challenge_methods without S256; one that lists none is refused too.
    if (metadata && !metadata.code_challenge_methods_supported?.includes('S256')) {
      throw new SignInFailedError(`the authorization server of server "${server}" (${host}) does not support PKCE with S256; refusing to sign in`);
    }
    const ui = this.options.ui;
    if (!ui || !this.receiver) {
      throw new SignInRequiredError(`server "${server}" needs you to sign in (at ${host})${this.options.signInHint ? `: ${this.options.signInHint}` : ''}`);
    }
    // Another request already opened the browser: this one waits for that sign-in instead of starting a second.
    if (this.awaitingCallback) {
      this.options.log.info(`a request to server "${server}" waits for the sign-in in progress`);
      return;
    }
    const state = authorizationUrl.searchParams.get('state') ?? this.expectedState;
    if (!state) throw new SignInFailedError('no state was sent with the authorization request');
    this.authorization = {
      clientId: authorizationUrl.searchParams.get('client_id') ?? undefined,
      scope: authorizationUrl.searchParams.get('scope') ?? undefined,
    };
    this.options.log.info(`signing in to server "${server}" at ${host}`);
    // The SDK's flow ends here (auth() answers REDIRECT and the request fails at once, so no request or
    // handshake timer runs while the user is in the browser); the connection then awaits pendingSignIn().
    const receiver = this.receiver;
    this.pendingAbort?.abort();
    const abort = new AbortController();
    this.pendingAbort = abort;
    const timeoutMs = this.options.signInTimeoutMs ?? SIGN_IN_TIMEOUT_MS;
    const answer = receiver.waitForRedirect(state, timeoutMs, abort.signal).catch((e: unknown) => {
      if (!(e instanceof SignInTimedOutError)) throw e;
      throw new SignInFailedError(
        `the sign-in to server "${server}" at ${host} did not come back within ${describeDuration(timeoutMs)} ` +
          '(the authorization server may have shown an error page, or the browser tab was closed); nothing was stored',
      );
    });
    answer.catch(() => undefined);
    // The redirect's time limit covers the question to the user too.
    const alreadyChosen = this.accountSignIn?.browserChosen ?? false;
    const ended = answer.then(
      () => undefined,
      () => undefined,
    );
    const pending = Promise.all([
      ui.openAuthorization({ server, authorizationUrl, authorizationHost: host, alreadyChosen, timeoutMs, ended, cancel: () => abort.abort() }),
      answer,
    ]).then(([, q]) => q);
    pending.catch(() => undefined);
    this.pending = pending;
    this.awaitingCallback = true;
  }

  /** Gives up a browser sign-in nobody will wait for (the connection failed or stopped). */
  cancelPendingSignIn(): void {
    this.pendingAbort?.abort();
    this.pendingAbort = undefined;
    this.pending = undefined;
    this.awaitingCallback = false;
  }

  /**
   * The authorization response of the browser sign-in that the last request started, once (undefined when
   * none was started): the caller hands it to the transport's finishAuth, which checks `iss` and redeems the code.
   * `signed-in` when the request is only to be sent again: an account of the host's signed in instead, or a client
   * registered earlier was given up after an `invalid_scope` (scopeRefused), so that the next attempt registers anew.
   */
  async pendingSignIn(): Promise<URLSearchParams | 'signed-in' | undefined> {
    const p = this.pending;
    this.pending = undefined;
    try {
      const answer = await p;
      return answer instanceof URLSearchParams && answer.get('error') === 'invalid_scope' ? await this.scopeRefused(answer) : answer;
    } catch (e) {
      this.awaitingCallback = false;
      throw e;
    }
  }

  /**
   * The authorization server refused the scope the browser was sent to ask for. A client this host registered
   * earlier may be held to the scope it was registered for: it is given up (once a flow) and the request is
   * sent again, which registers a new client for the larger scope. A configured client, a client metadata
   * document's, or one registered for this very scope cannot do better: the refusal is reported, naming the scope.
   */
  private async scopeRefused(answer: URLSearchParams): Promise<URLSearchParams | 'signed-in'> {
    const iss = answer.get('iss');
    // An answer naming another issuer is left to the SDK, which reports the mix-up.
    if (iss && this.issuer && !sameIssuer(iss, this.issuer)) return answer;
    const server = this.options.server;
    const { clientId, scope } = this.authorization ?? {};
    const why = describeRefusal('invalid_scope', answer.get('error_description'));
    const registeredNow = [...this.newClients.values()].some((c) => c.client_id === clientId);
    const configured = Boolean(this.settings.clientId) && clientId === this.settings.clientId;
    const document = clientId !== undefined && clientId === this.servedMetadataUrl;
    this.awaitingCallback = false;
    if (clientId && !configured && !document && !registeredNow && !this.registeredAgainForScope) {
      this.registeredAgainForScope = true;
      this.options.log.info(
        `the authorization server refused the scope "${scope ?? ''}" for the client registered earlier (${why}); registering a new client for it`,
      );
      await this.invalidateCredentials('client');
      return 'signed-in';
    }
    const which = configured ? `the configured client ${clientId}` : document ? `the client metadata document ${clientId}` : 'the client registered for it';
    throw new SignInFailedError(`the authorization server of server "${server}" refused the scope "${scope ?? ''}" for ${which} (${why}); nothing was stored`);
  }

  /** The first browser sign-in's verifier is kept while it is in progress (requests that join it make their own). */
  saveCodeVerifier(codeVerifier: string): void {
    if (!this.awaitingCallback) this.verifier = codeVerifier;
  }
  codeVerifier(): string {
    if (!this.verifier) throw new SignInFailedError('no sign-in is in progress (no PKCE verifier)');
    return this.verifier;
  }

  /** Every endpoint the metadata names is checked as it arrives, before any is used. */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    const server = this.options.server;
    checkAuthorizationUrl(state.authorizationServerUrl, server, 'authorization server URL');
    const metadata = (state.authorizationServerMetadata ?? {}) as Record<string, unknown>;
    for (const [field, what] of METADATA_ENDPOINTS) {
      if (metadata[field] !== undefined) checkAuthorizationUrl(String(metadata[field]), server, what);
    }
    this.discovery = state;
  }
  /**
   * Handed back only for the callback leg of a browser sign-in (the code is bound to the authorization
   * server it came from): every other run discovers afresh, so a server whose authorization server moved
   * is followed to the new one, where the host registers again.
   */
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.awaitingCallback ? this.discovery : undefined;
  }
  saveAuthorizationServerUrl(issuer: string): void {
    this.issuer = issuer;
  }
  authorizationServerUrl(): string | undefined {
    return this.issuer;
  }
  saveResourceUrl(resource: string): void {
    this.resource = resource;
  }
  resourceUrl(): string | undefined {
    return this.resource;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'all') this.verifier = undefined;
    if (scope === 'client' || scope === 'all') this.newClients.clear();
    if (scope === 'discovery' || scope === 'all') this.discovery = undefined;
    if (scope === 'all') {
      await forgetServer(this.options.store, this.options.serverUrl);
      return;
    }
    if (scope === 'client' || scope === 'tokens') {
      await this.update((r) => {
        for (const [issuer, e] of Object.entries(r.issuers)) {
          if (this.issuer && !sameIssuer(issuer, this.issuer)) continue;
          if (scope === 'client') delete e.client;
          else delete e.tokens;
          if (!e.client && !e.tokens) delete r.issuers[issuer];
        }
      });
    }
  }

  /**
   * Whether the RFC 8414 issuer check may be waived after it failed: only for a server of the 2025-03-26
   * era, which publishes no protected resource metadata, so its authorization server's location was
   * derived from the server URL rather than advertised, and no issuer was named to check against.
   */
  async issuerCheckWaivable(): Promise<boolean> {
    try {
      await discoverOAuthProtectedResourceMetadata(this.options.serverUrl, undefined, this.fetch);
      return false;
    } catch {
      return true;
    }
  }

  /**
   * Whether the MCP server takes DPoP-bound tokens: it answered with a DPoP challenge, or its protected
   * resource metadata names DPoP algorithms or requires bound tokens (RFC 9728 §2). A server that says
   * nothing of DPoP gets Bearer tokens, whatever its authorization server offers.
   */
  private resourceTakesDpop(): boolean {
    const rm = this.discovery?.resourceMetadata as { dpop_signing_alg_values_supported?: unknown; dpop_bound_access_tokens_required?: unknown } | undefined;
    const algs = rm?.dpop_signing_alg_values_supported;
    return this.dpopChallenged || (Array.isArray(algs) && algs.length > 0) || rm?.dpop_bound_access_tokens_required === true;
  }

  /**
   * DPoP-bound tokens (RFC 9449) where the authorization server offers them and the MCP server takes them.
   * The key stored tokens are bound to is used again (also before this run has discovered anything); a new
   * key is stored with the first tokens bound to it.
   */
  async dpop(): Promise<DpopSession | undefined> {
    if (this.dpopSession) return this.dpopSession;
    const algs = (this.discovery?.authorizationServerMetadata as { dpop_signing_alg_values_supported?: unknown } | undefined)
      ?.dpop_signing_alg_values_supported;
    const offered = this.resourceTakesDpop() && Array.isArray(algs) ? algs.map(String) : [];
    const entry = this.entry(await this.record(), this.issuer ? { issuer: this.issuer } : undefined);
    // A stored key serves only the tokens bound to it.
    const stored = String(entry?.tokens?.token_type).toLowerCase() === 'dpop' ? entry?.dpopKey : undefined;
    if (offered.length === 0 && !stored) return undefined;
    this.dpopSession ??= (async () => {
      const kept = await importDpopKey(stored);
      if (kept && (offered.length === 0 || offered.includes(kept.alg))) return DpopSession.create({ keyPair: kept });
      const alg = (
        offered.includes('ES256') || offered.length === 0 ? 'ES256' : (offered.find((a) => (DPOP_SUPPORTED_ALGS as readonly string[]).includes(a)) ?? 'ES256')
      ) as DpopAlg;
      const { keyPair, stored: toKeep } = await newDpopKey(alg);
      this.newDpopKey = toKeep;
      return DpopSession.create({ keyPair });
    })();
    return this.dpopSession;
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    this.checkCredentialsDestination();
    const s = this.settings;
    const withScope = (p: Record<string, string>) => new URLSearchParams(scope ? { ...p, scope } : p);
    switch (this.grant) {
      case 'authorization_code':
        return undefined;
      case 'client_credentials':
        return withScope({ grant_type: 'client_credentials' });
      case 'jwt_bearer': {
        if (!s.assertion) throw new SignInFailedError('the JWT bearer grant needs an assertion');
        return withScope({ grant_type: JWT_BEARER, assertion: s.assertion });
      }
      case 'enterprise': {
        const idp = s.idp;
        if (!idp)
          throw new SignInFailedError("enterprise-managed authorization needs the identity provider's ID token, issuer or token endpoint, and client id");
        if (!this.issuer || !this.resource) throw new SignInFailedError(`server "${this.options.server}" did not name its authorization server and resource`);
        this.options.log.maskSecrets([idp.idToken, ...(idp.clientSecret ? [idp.clientSecret] : [])]);
        const common = {
          audience: this.issuer,
          resource: this.resource,
          idToken: idp.idToken,
          clientId: idp.clientId,
          clientSecret: idp.clientSecret,
          scope,
          fetchFn: this.fetch,
        };
        const grant = idp.tokenEndpoint
          ? await requestJwtAuthorizationGrant({ ...common, tokenEndpoint: idp.tokenEndpoint })
          : await discoverAndRequestJwtAuthGrant({ ...common, idpUrl: idp.issuer ?? '' });
        this.options.log.maskSecrets([grant.jwtAuthGrant]);
        return withScope({ grant_type: JWT_BEARER, assertion: grant.jwtAuthGrant });
      }
    }
  }
}
