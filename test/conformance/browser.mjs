// A stand-in browser for the conformance runs ($BROWSER): the suites' authorization servers approve at
// once, so "signing in" is following the authorization URL's redirects until the loopback redirect is reached.
// (node:http rather than fetch: it is loaded already, where fetch's first call loads its whole client, a third
// of a second of CPU for each of the suites' sign-ins.)
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

const MAX_REDIRECTS = 5;

/** GETs `url`, reads the body away, and resolves with its Location header, if any. */
function visit(url) {
  return new Promise((resolve, reject) => {
    const request = (url.startsWith('https:') ? httpsRequest : httpRequest)(url, { timeout: 10_000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.headers.location));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer from ${url} within 10 s`)));
    request.on('error', reject);
    request.end();
  });
}

let url = process.argv[2];
for (let i = 0; i <= MAX_REDIRECTS && url; i++) {
  const location = await visit(url);
  url = location ? new URL(location, url).href : undefined;
}
