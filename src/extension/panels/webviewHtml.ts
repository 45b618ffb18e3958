// The HTML of every MCP Host webview: a strict CSP with a per-render nonce and nothing inline
// but the one nonce'd script tag that loads media/webview.js. "Loading…" shows until the app renders. Kept free of `vscode` so it is
// tested in plain Node.
import type { AppCsp } from '../../core/apps/csp';

export interface WebviewHtmlParts {
  /** `webview.cspSource`. */
  cspSource: string;
  nonce: string;
  title: string;
  scriptUri: string;
  styleUri: string;
  codiconsUri: string;
  /** A tool panel that may show an MCP App: the app frame's own nonce and the origins its apps declared. */
  app?: AppFramePolicy;
  /** With `app`: media/app-bridge.js, deferred: it runs after the webview script, while the panel waits for its content. */
  appBridgeUri?: string;
}

export interface AppFramePolicy {
  nonce: string;
  csp: AppCsp;
}

/**
 * The webview's policy. With `app`, it is also the ceiling of the app frames it holds (a srcdoc frame inherits
 * it; the app's own meta policy narrows it to exactly what its resource declared): scripts with the app
 * nonce (and what they load), inline styles, and the declared origins. The webview itself never renders
 * server HTML, so these widen nothing it does.
 */
export function contentSecurityPolicy(cspSource: string, nonce: string, app?: AppFramePolicy): string {
  const res = app ? ['', ...app.csp.resourceDomains].join(' ') : '';
  const parts = [
    "default-src 'none'",
    // data: only for result previews the core already capped (images; audio in media-src).
    `img-src ${cspSource} data:${app ? ` blob:${res}` : ''}`,
    `media-src data:${app ? ` blob:${res}` : ''}`,
    `style-src ${cspSource}${app ? ` 'unsafe-inline'${res}` : ''}`,
    `font-src ${cspSource}${app ? ` data:${res}` : ''}`,
    `script-src 'nonce-${nonce}'${app ? ` 'nonce-${app.nonce}' 'strict-dynamic'` : ''}`,
  ];
  if (app?.csp.connectDomains.length) parts.push(`connect-src ${app.csp.connectDomains.join(' ')}`);
  if (app?.csp.frameDomains.length) parts.push(`frame-src ${app.csp.frameDomains.join(' ')}`);
  return parts.join('; ');
}

export function webviewHtml(parts: WebviewHtmlParts): string {
  const attr = escapeHtml;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(parts.cspSource, parts.nonce, parts.app))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(parts.codiconsUri)}">
<link rel="stylesheet" href="${attr(parts.styleUri)}">
<title>${escapeHtml(parts.title)}</title>
</head>
<body>
<main id="app"><p class="loading" role="status">Loading…</p></main>
${
  parts.app && parts.appBridgeUri
    ? `<script defer data-app-bridge nonce="${attr(parts.nonce)}" src="${attr(parts.appBridgeUri)}"></script>
`
    : ''
}<script nonce="${attr(parts.nonce)}" src="${attr(parts.scriptUri)}"></script>
</body>
</html>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
