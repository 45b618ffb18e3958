// The document an app's iframe gets: the server's HTML with the app's CSP put first in its head and the
// frame's script nonce stamped on its script tags.
//
// The iframe is a srcdoc document in an opaque origin (sandbox without allow-same-origin). Such a document
// inherits the webview's own policy, and a meta policy can only narrow it: the app runs under both. So the
// webview's policy lets in scripts carrying a nonce of their own (APP nonce, never the webview's) plus the
// origins apps declared, and the meta policy below narrows the app to exactly what its resource declared.
import { appCspHeader, type AppCsp } from './csp';

function escapeAttr(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function appDocument(html: string, csp: AppCsp, scriptNonce: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeAttr(appCspHeader(csp))}">`;
  const stamped = stampScripts(html, scriptNonce);
  // The policy is the document's very first element (after a leading doctype): the parser puts it in the
  // head whatever follows, and nothing the app wrote (a `<head>` inside a comment, say) can come before it.
  const doctype = /^\uFEFF?\s*<!doctype[^>]*>/i.exec(stamped);
  if (doctype) return doctype[0] + meta + stamped.slice(doctype[0].length);
  return meta + stamped;
}

/**
 * Every `<script` start tag gets the nonce (a nonce the server wrote itself is replaced). A script's text is
 * skipped up to its `</script`, as the HTML parser does: a "<script>" inside the code (React writes one in a
 * string) is code, not a tag, and is left as it is.
 */
function stampScripts(html: string, nonce: string): string {
  const start = /<script\b([^>]*)>/gi;
  const end = /<\/script/gi;
  let out = '';
  let at = 0;
  for (let m = start.exec(html); m; m = start.exec(html)) {
    const attrs = m[1]!.replace(/\snonce\s*=\s*("[^"]*"|'[^']*'|[^\s>]*)/gi, '');
    out += `${html.slice(at, m.index)}<script nonce="${nonce}"${attrs}>`;
    at = start.lastIndex;
    end.lastIndex = at;
    const close = end.exec(html);
    if (!close) break;
    out += html.slice(at, close.index);
    at = close.index;
    start.lastIndex = at;
  }
  return out + html.slice(at);
}
