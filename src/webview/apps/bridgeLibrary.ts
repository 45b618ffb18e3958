// media/app-bridge.js is a deferred script: it runs after media/webview.js, while the panel waits for its content
// from the extension, instead of before it. An app waits for it here; its frame may start loading before it ran
// (AppView keeps what the app sends until the bridge listens).
import type * as AppBridgeModule from '@modelcontextprotocol/ext-apps/app-bridge' with { 'resolution-mode': 'import' };

export type AppBridgeLibrary = Pick<typeof AppBridgeModule, 'AppBridge' | 'PostMessageTransport'>;

const LOADED_EVENT = 'mcp-host:app-bridge-loaded';
/** The script element's marker (src/extension/panels/webviewHtml.ts): a panel without it shows no app. */
export const APP_BRIDGE_SCRIPT_ATTRIBUTE = 'data-app-bridge';

type WithBridge = { mcpHostAppBridge?: AppBridgeLibrary };

/** Called by media/app-bridge.js once it has run. */
export function publishAppBridge(library: AppBridgeLibrary): void {
  (globalThis as WithBridge).mcpHostAppBridge = library;
  // For `npm run bench`.
  performance.mark('mcp-host:app-bridge-loaded');
  dispatchEvent(new Event(LOADED_EVENT));
}

let loading: Promise<AppBridgeLibrary | undefined> | undefined;

/** The bridge once its script has run; undefined when the panel has none, it failed to load, or took over `timeoutMs`. */
export function appBridgeLibrary(timeoutMs: number): Promise<AppBridgeLibrary | undefined> {
  const loaded = (): AppBridgeLibrary | undefined => (globalThis as WithBridge).mcpHostAppBridge;
  if (loaded()) return Promise.resolve(loaded());
  const script = document.querySelector(`script[${APP_BRIDGE_SCRIPT_ATTRIBUTE}]`);
  if (!script) return Promise.resolve(undefined);
  loading ??= new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      removeEventListener(LOADED_EVENT, done);
      script.removeEventListener('error', done);
      loading = undefined;
      resolve(loaded());
    };
    const timer = setTimeout(done, timeoutMs);
    addEventListener(LOADED_EVENT, done);
    script.addEventListener('error', done);
  });
  return loading;
}
