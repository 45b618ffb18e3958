// The Content-Security-Policy an app runs under: exactly what its resource's `_meta.ui.csp` declares.
export interface AppCsp {
  connectDomains: string[];
  resourceDomains: string[];
  frameDomains: string[];
  baseUriDomains: string[];
}

export const EMPTY_CSP: AppCsp = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };

const MAX_DOMAINS = 64;

/**
 * One declared origin as a CSP source expression: `https://api.example.com`, `wss://rt.example.com:8443`,
 * `https://*.example.com`. Anything else (a keyword like 'unsafe-eval', `*`, a bare scheme, a path with a
 * `;` or a quote that would smuggle a directive) is dropped, so a declaration can never widen the policy
 * beyond origins it names.
 */
export function cspSource(origin: string): string | undefined {
  const m = /^(https?|wss?):\/\/(\*\.)?([a-z0-9-]+(\.[a-z0-9-]+)*)(:\d{1,5})?\/?$/i.exec(origin.trim());
  if (!m) return undefined;
  return `${m[1]!.toLowerCase()}://${m[2] ?? ''}${m[3]!.toLowerCase()}${m[5] ?? ''}`;
}

/** `_meta.ui.csp` read defensively; the sources dropped are reported in `dropped`. */
export function readAppCsp(raw: unknown): { csp: AppCsp; dropped: string[] } {
  const csp: AppCsp = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };
  const dropped: string[] = [];
  if (!raw || typeof raw !== 'object') return { csp, dropped };
  for (const key of Object.keys(csp) as (keyof AppCsp)[]) {
    const list = (raw as Record<string, unknown>)[key];
    if (!Array.isArray(list)) continue;
    for (const entry of list.slice(0, MAX_DOMAINS)) {
      const source = typeof entry === 'string' ? cspSource(entry) : undefined;
      if (source) {
        if (!csp[key].includes(source)) csp[key].push(source);
      } else dropped.push(`${key}: ${String(entry).slice(0, 100)}`);
    }
  }
  return { csp, dropped };
}

/**
 * The policy of the spec for a declaration: nothing from the network but the declared origins, inline
 * scripts and styles of the app's own document, no nested frames unless declared, no plugins.
 */
export function appCspHeader(csp: AppCsp): string {
  const res = csp.resourceDomains.join(' ');
  const list = (...parts: string[]) => parts.filter(Boolean).join(' ');
  return [
    "default-src 'none'",
    // data: and blob: scripts are no more than the inline code already allowed (pdf.js starts its worker from one).
    `script-src ${list("'self'", "'unsafe-inline'", 'data:', 'blob:', res)}`,
    `worker-src ${list("'self'", 'data:', 'blob:')}`,
    `style-src ${list("'self'", "'unsafe-inline'", res)}`,
    `img-src ${list("'self'", 'data:', 'blob:', res)}`,
    `font-src ${list("'self'", 'data:', res)}`,
    `media-src ${list("'self'", 'data:', 'blob:', res)}`,
    `connect-src ${list("'self'", csp.connectDomains.join(' '))}`,
    `frame-src ${csp.frameDomains.length ? csp.frameDomains.join(' ') : "'none'"}`,
    "object-src 'none'",
    `base-uri ${csp.baseUriDomains.length ? csp.baseUriDomains.join(' ') : "'self'"}`,
    "form-action 'none'",
  ].join('; ');
}
