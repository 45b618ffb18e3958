// media/app-bridge.js: the ext-apps host side (AppBridge, PostMessageTransport, with the MCP SDK's Protocol
// and zod), loaded (async) only by panels that may show an app.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import { publishAppBridge } from './bridgeLibrary.js';

publishAppBridge({ AppBridge, PostMessageTransport });
