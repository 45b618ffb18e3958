// The editor's accounts for servers whose authorization server one of its authentication providers serves:
// the providers and the authorization servers they name (`authorizationServerGlobs` of an extension's
// `authentication` contribution, as GitHub's and Microsoft's built-in ones have, plus the
// `mcpHost.oauth.accountProviders` setting), the user's choice, and sessions from vscode.authentication.
import * as vscode from 'vscode';
import { setting } from '../settings';
import type { AccountProvider, AccountSession, AccountSessionMode, AccountSessions } from '../../core/auth/accountSignIn';
import { SignInCancelledError } from '../../core/auth/types';

interface AuthenticationContribution {
  id?: unknown;
  label?: unknown;
  authorizationServerGlobs?: unknown;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/** Every installed extension's authentication providers, with the user's own mapping first. */
export function accountProviders(): AccountProvider[] {
  const contributed: AccountProvider[] = [];
  for (const ext of vscode.extensions.all) {
    const list = (ext.packageJSON as { contributes?: { authentication?: unknown } } | undefined)?.contributes?.authentication;
    for (const c of Array.isArray(list) ? (list as AuthenticationContribution[]) : []) {
      if (typeof c.id !== 'string') continue;
      contributed.push({ id: c.id, label: typeof c.label === 'string' ? c.label : c.id, authorizationServerGlobs: strings(c.authorizationServerGlobs) });
    }
  }
  const mapping: unknown = setting('oauth.accountProviders');
  const configured = Object.entries(mapping !== null && typeof mapping === 'object' ? mapping : {})
    .filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '')
    .map(([glob, id]) => ({ id, label: contributed.find((p) => p.id === id)?.label ?? id, authorizationServerGlobs: [glob] }));
  return [...configured, ...contributed];
}

export const editorAccounts: AccountSessions = {
  providers: accountProviders,

  async choose({ server, provider, authorizationHost, account }) {
    type Item = vscode.QuickPickItem & { answer: 'account' | 'browser' };
    const items: Item[] = [
      { label: `$(account) Sign in with your ${provider.label} account${account ? ` (${account})` : ''}`, answer: 'account' },
      { label: `$(globe) Sign in at ${authorizationHost} in the browser`, answer: 'browser' },
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title: `MCP server "${server}" asks you to sign in`,
      placeHolder: `Its authorization server is one your ${provider.label} account serves`,
      ignoreFocusOut: true,
    });
    if (!picked) throw new SignInCancelledError(`the sign-in to server "${server}" was cancelled`);
    return picked.answer;
  },

  async session(providerId, scopes, how): Promise<AccountSession | undefined> {
    const account = how.accountId ? { account: { id: how.accountId, label: '' } } : {};
    const options = sessionOptions(how.mode, how.server);
    const s = await vscode.authentication.getSession(providerId, [...scopes], { ...options, ...account });
    return s ? { accessToken: s.accessToken, account: { id: s.account.id, label: s.account.label }, scopes: s.scopes } : undefined;
  },
};

function sessionOptions(mode: AccountSessionMode, server: string): vscode.AuthenticationGetSessionOptions {
  switch (mode) {
    case 'silent':
      return { silent: true };
    case 'ask':
      return { createIfNone: { detail: `MCP server "${server}" asks for it.` } };
    case 'fresh':
      return { forceNewSession: { detail: `MCP server "${server}" refused the current session's token.` } };
  }
}
