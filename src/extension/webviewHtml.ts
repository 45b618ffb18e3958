// The HTML of every MCP Host webview: a strict CSP with a per-render nonce and nothing inline
// but the one nonce'd script tag that loads media/webview.js. "Loading…" shows until the app renders. Kept free of `vscode` so it is
// tested in plain Node.

export interface WebviewHtmlParts {
  /** `webview.cspSource`. */
  cspSource: string;
  nonce: string;
  title: string;
  scriptUri: string;
  styleUri: string;
  codiconsUri: string;
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    // data: only for result previews the core already capped (images; audio in media-src).
    `img-src ${cspSource} data:`,
    'media-src data:',
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

export function webviewHtml(parts: WebviewHtmlParts): string {
  const attr = escapeHtml;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(parts.cspSource, parts.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(parts.codiconsUri)}">
<link rel="stylesheet" href="${attr(parts.styleUri)}">
<title>${escapeHtml(parts.title)}</title>
</head>
<body>
<main id="app"><p class="loading" role="status">Loading…</p></main>
<script nonce="${attr(parts.nonce)}" src="${attr(parts.scriptUri)}"></script>
</body>
</html>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
