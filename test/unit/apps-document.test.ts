// The app frame's document and the policies around it: the app's declared CSP comes first in its document,
// its scripts carry the frame nonce (never the webview's), and the webview's own policy widens only for
// panels that hold apps, by exactly the origins those apps declared.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { appDocument, readAppCsp } from '../../src/core/apps';
import { contentSecurityPolicy } from '../../src/extension/panels/webviewHtml';
import { repoRoot } from '../fixtures/servers';

const none = readAppCsp(undefined).csp;

test('the declared policy is the first element, after a leading doctype, whatever the app wrote', () => {
  const doc = appDocument('<!DOCTYPE html><!-- <head> --><html><head><title>x</title></head><body></body></html>', none, 'N1');
  assert.match(doc, /^<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; /);
  const bare = appDocument('<p>hi</p>', readAppCsp({ connectDomains: ['https://api.example.com'] }).csp, 'N1');
  assert.match(bare, /^<meta http-equiv="Content-Security-Policy" content="[^"]*connect-src &#39;self&#39; https:\/\/api\.example\.com;/);
});

test('every script tag gets the frame nonce; a nonce the app wrote is replaced', () => {
  const doc = appDocument('<script>a()</script><SCRIPT type="module" nonce="theirs">b()</SCRIPT><script src="x.js" nonce=abc></script>', none, 'N1');
  assert.equal(doc.match(/nonce="N1"/g)?.length, 3);
  assert.doesNotMatch(doc, /theirs|abc/);
  assert.match(doc, /<script nonce="N1" type="module">b\(\)/);
});

test('a "<script>" inside a script\'s code is code: only real start tags are stamped', () => {
  const doc = appDocument('<script type="module">x.innerHTML="<script><\\/script>";</script><p>after</p><script>b()</script>', none, 'N1');
  assert.equal(doc.match(/nonce="N1"/g)?.length, 2);
  assert.match(doc, /x\.innerHTML="<script><\\\/script>";<\/script><p>after<\/p><script nonce="N1">b\(\)/);
  const html = readFileSync(join(repoRoot, 'node_modules/@modelcontextprotocol/server-threejs/dist/mcp-app.html'), 'utf8');
  assert.ok(appDocument(html, none, 'N1').includes('_.innerHTML="<script><\\/script>"'), "React's string is left as it is");
});

test('the real example app keeps working markup: its module script is stamped and its policy allows no network', () => {
  const html = readFileSync(join(repoRoot, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/mcp-app.html'), 'utf8');
  const doc = appDocument(html, none, 'N1');
  assert.match(doc, /<script nonce="N1" type="module" crossorigin>/);
  assert.match(doc, /connect-src &#39;self&#39;;/);
  assert.equal(doc.length - html.length < 1200, true);
});

test('the webview policy widens for app panels only, by the app nonce and the declared origins', () => {
  const plain = contentSecurityPolicy('https://cdn.vscode', 'W1');
  assert.equal(
    plain,
    "default-src 'none'; img-src https://cdn.vscode data:; media-src data:; style-src https://cdn.vscode; font-src https://cdn.vscode; script-src 'nonce-W1'",
  );
  const app = contentSecurityPolicy('https://cdn.vscode', 'W1', {
    nonce: 'A1',
    csp: readAppCsp({ connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] }).csp,
  });
  assert.match(app, /script-src 'nonce-W1' 'nonce-A1' 'strict-dynamic'/);
  assert.match(app, /connect-src https:\/\/api\.example\.com/);
  assert.match(app, /img-src https:\/\/cdn\.vscode data: blob: https:\/\/cdn\.example\.com/);
  assert.doesNotMatch(app, /frame-src/);
  assert.doesNotMatch(app, /unsafe-eval|\*/);
});
