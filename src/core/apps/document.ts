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
  // Every <script start tag gets the nonce; a nonce the server wrote itself is replaced.
  const stamped = html.replace(/<script\b([^>]*)>/gi, (_tag, attrs: string) =>
    `<script nonce="${scriptNonce}"${attrs.replace(/\snonce\s*=\s*("[^"]*"|'[^']*'|[^\s>]*)/gi, '')}>`);
  // The policy is the document's very first element (after a leading doctype): the parser puts it in the
  // head whatever follows, and nothing the app wrote (a `<head>` inside a comment, say) can come before it.
  const doctype = /^\uFEFF?\s*<!doctype[^>]*>/i.exec(stamped);
  if (doctype) return doctype[0] + meta + stamped.slice(doctype[0].length);
  return meta + stamped;
}
