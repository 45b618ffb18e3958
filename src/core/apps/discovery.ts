// Which tools come with an MCP App (the `io.modelcontextprotocol/ui` extension), and who may call them.
import type { Tool } from '@modelcontextprotocol/client';

/** The extension's identifier in `capabilities.extensions`. */
export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** The MIME type of an app's HTML resource. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/**
 * What the host declares to servers: it renders HTML apps, and lets an app answer a form question that names it
 * (`elicitation`, SEP-3118; the native form stays the fallback).
 */
export const UI_CAPABILITY = { mimeTypes: [APP_MIME_TYPE], elicitation: {} };

type ToolMeta = Pick<Tool, '_meta'>;

function uiMeta(tool: ToolMeta): Record<string, unknown> | undefined {
  const ui = tool._meta?.ui;
  return ui && typeof ui === 'object' && !Array.isArray(ui) ? (ui as Record<string, unknown>) : undefined;
}

/**
 * The `ui://` resource a tool's interface lives in: `_meta.ui.resourceUri`, or the older flat key
 * `_meta["ui/resourceUri"]`. Any other scheme is not an app (undefined).
 */
export function toolAppUri(tool: ToolMeta): string | undefined {
  const nested = uiMeta(tool)?.resourceUri;
  const flat = tool._meta?.['ui/resourceUri'];
  const uri = typeof nested === 'string' ? nested : typeof flat === 'string' ? flat : undefined;
  return uri !== undefined && uri.startsWith('ui://') && uri.length > 'ui://'.length ? uri : undefined;
}

/** `_meta.ui.visibility`: who may see the tool. Absent (or malformed) means both, as the spec says. */
export function toolVisibility(tool: ToolMeta): ('model' | 'app')[] {
  const v = uiMeta(tool)?.visibility;
  if (!Array.isArray(v)) return ['model', 'app'];
  return v.filter((x): x is 'model' | 'app' => x === 'model' || x === 'app');
}

/** A tool shown to the user as a tool (Servers view, Run Tool, `mcp-host tools`): every tool but app-only ones. */
export function offeredToUser(tool: ToolMeta): boolean {
  return toolVisibility(tool).includes('model');
}

/** Whether an app may call the tool through the bridge (its visibility includes "app"). */
export function callableByApp(tool: ToolMeta): boolean {
  return toolVisibility(tool).includes('app');
}
