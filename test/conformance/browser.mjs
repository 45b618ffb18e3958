// A stand-in browser for the conformance runs ($BROWSER): the suites' authorization servers approve at
// once, so "signing in" is following the authorization URL's redirects until the loopback redirect is reached.
const MAX_REDIRECTS = 5;
let url = process.argv[2];
for (let i = 0; i <= MAX_REDIRECTS && url; i++) {
  const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
  await response.arrayBuffer().catch(() => undefined);
  const location = response.headers.get('location');
  url = location ? new URL(location, url).href : undefined;
}
