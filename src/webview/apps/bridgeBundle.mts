// media/app-bridge.js: the ext-apps host side (AppBridge, PostMessageTransport, with the MCP SDK's Protocol
// and zod), loaded only by panels that may show an app, before media/webview.js.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

(globalThis as { mcpHostAppBridge?: unknown }).mcpHostAppBridge = { AppBridge, PostMessageTransport };
