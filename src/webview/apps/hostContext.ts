// The host context an app receives: VS Code's theme as the spec's style variables, light/dark, locale,
// display mode, container size and platform. Read from the webview's own document (VS Code sets its
// --vscode-* variables and body classes there).
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge' with { 'resolution-mode': 'import' };
import { HOST_VERSION } from '../../shared/version';

/** The spec's variables, each from the VS Code theme variable that means the same. */
const VARIABLES: Record<string, string> = {
  '--color-background-primary': '--vscode-editor-background',
  '--color-background-secondary': '--vscode-sideBar-background',
  '--color-background-tertiary': '--vscode-editorWidget-background',
  '--color-background-inverse': '--vscode-editor-foreground',
  '--color-background-info': '--vscode-inputValidation-infoBackground',
  '--color-background-danger': '--vscode-inputValidation-errorBackground',
  '--color-background-warning': '--vscode-inputValidation-warningBackground',
  '--color-text-primary': '--vscode-foreground',
  '--color-text-secondary': '--vscode-descriptionForeground',
  '--color-text-inverse': '--vscode-editor-background',
  '--color-text-info': '--vscode-textLink-foreground',
  '--color-text-danger': '--vscode-errorForeground',
  '--color-text-warning': '--vscode-editorWarning-foreground',
  '--color-text-disabled': '--vscode-disabledForeground',
  '--color-border-primary': '--vscode-panel-border',
  '--color-border-secondary': '--vscode-widget-border',
  '--color-ring-primary': '--vscode-focusBorder',
  '--font-sans': '--vscode-font-family',
  '--font-mono': '--vscode-editor-font-family',
  '--font-text-md-size': '--vscode-font-size',
};

export type DisplayMode = 'inline' | 'fullscreen';

export function themeKind(): 'light' | 'dark' {
  const c = document.body.classList;
  return c.contains('vscode-dark') || (c.contains('vscode-high-contrast') && !c.contains('vscode-high-contrast-light')) ? 'dark' : 'light';
}

export function styleVariables(): Record<string, string> {
  const style = getComputedStyle(document.documentElement);
  const out: Record<string, string> = {};
  for (const [spec, vscodeName] of Object.entries(VARIABLES)) {
    const value = style.getPropertyValue(vscodeName).trim();
    if (value) out[spec] = value;
  }
  return out;
}

export function hostContext(o: {
  locale: string;
  displayMode: DisplayMode;
  availableDisplayModes: DisplayMode[];
  width: number;
  maxHeight: number;
}): McpUiHostContext {
  return {
    theme: themeKind(),
    styles: { variables: styleVariables() as NonNullable<McpUiHostContext['styles']>['variables'] },
    displayMode: o.displayMode,
    availableDisplayModes: o.availableDisplayModes,
    containerDimensions: { width: o.width, maxHeight: o.maxHeight },
    locale: o.locale,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    platform: 'desktop',
    userAgent: `mcp-host/${HOST_VERSION} (VS Code)`,
  };
}
