// An authentication provider for the tests, registered through VS Code's authentication API as GitHub's and
// Microsoft's are: its contribution names the authorization server of test/fixtures/account-server.ts, and
// its sessions' tokens (`test-account.<n>.<scopes, +-joined>`) are the ones that server takes. One account;
// a session is created when asked (no browser, no dialog of its own). The command
// `mcpHostTestAccounts.sessions` lists the sessions (id, account, scopes), so a test can see that signing out
// of an MCP server leaves the editor's account signed in.
import * as vscode from 'vscode';

export const PROVIDER_ID = 'mcp-host-test-accounts';
const ACCOUNT = { id: 'tester-1', label: 'tester@example.test' };

export function activate(context: vscode.ExtensionContext): void {
  const sessions: vscode.AuthenticationSession[] = [];
  let created = 0;
  const changed = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  const sameScopes = (a: readonly string[], b: readonly string[]) => [...a].sort().join(' ') === [...b].sort().join(' ');

  const provider: vscode.AuthenticationProvider = {
    onDidChangeSessions: changed.event,
    async getSessions(scopes) {
      return scopes ? sessions.filter((s) => sameScopes(s.scopes, scopes)) : [...sessions];
    },
    async createSession(scopes) {
      created++;
      const session = { id: `session-${created}`, accessToken: `test-account.${created}.${scopes.join('+')}`, account: ACCOUNT, scopes: [...scopes] };
      sessions.push(session);
      changed.fire({ added: [session], removed: [], changed: [] });
      return session;
    },
    async removeSession(id) {
      const i = sessions.findIndex((s) => s.id === id);
      if (i < 0) return;
      const [removed] = sessions.splice(i, 1);
      changed.fire({ added: [], removed: [removed!], changed: [] });
    },
  };
  context.subscriptions.push(
    changed,
    vscode.authentication.registerAuthenticationProvider(PROVIDER_ID, 'Test Accounts', provider),
    vscode.commands.registerCommand('mcpHostTestAccounts.sessions', () => sessions.map((s) => ({ id: s.id, account: s.account.label, scopes: s.scopes }))),
  );
}
