// Where the host may send file bytes (and fetch them from) on a server's word: one set of rules for SEP-1306
// uploads, SEP-2631 upload and download descriptors, and presigned result URLs.
// - HTTPS, or plain HTTP to this machine only;
// - redirects are never followed (the callers use node:http, which does not follow them);
// - loopback, private and link-local addresses only when the MCP server itself is on the same kind of
//   address (a server on the internet cannot point the host at the user's router or cloud metadata service).
//   The address is checked when the socket connects (the lookup below), so DNS cannot answer differently later.

import { lookup as dnsLookup, type LookupAddress, type LookupOneOptions } from 'node:dns';
import { isIP } from 'node:net';
import { HostError } from '../errors';

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** HTTPS, or plain HTTP to this machine only. Returns the reason a URL is refused, or undefined. */
export function refuseInsecureUrl(url: URL): string | undefined {
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return `${url.protocol}//${url.host} is not HTTPS; only HTTPS (or this machine over HTTP) is allowed`;
}

export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'unspecified';

function ipv4Kind(ip: string): AddressKind {
  const [a, b] = ip.split('.').map(Number) as [number, number];
  if (a === 127) return 'loopback';
  if (a === 0) return 'unspecified';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127)) return 'private';
  if (a === 169 && b === 254) return 'link-local';
  return 'public';
}

/** What kind of network an IP address is on (IPv4-mapped IPv6 addresses count as their IPv4 address). */
export function addressKind(address: string): AddressKind {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(ip) === 4) return ipv4Kind(ip);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped) return ipv4Kind(mapped[1]!);
  if (ip === '::1') return 'loopback';
  if (ip === '::') return 'unspecified';
  if (/^f[cd]/.test(ip)) return 'private';
  if (/^fe[89ab]/.test(ip)) return 'link-local';
  return 'public';
}

/** The kinds of non-public address a server may point the host at: the kind it is on itself. */
export interface DestinationPolicy {
  /** `loopback` for a stdio server (a process on this machine) or one reached on 127.0.0.1; undefined for a public one. */
  serverKind?: Exclude<AddressKind, 'public' | 'unspecified'>;
  /** For messages: the MCP server's origin, or "a local server". */
  serverDescription: string;
}

const KIND_WORDS: Record<AddressKind, string> = {
  public: 'a public address',
  loopback: 'this machine (loopback)',
  private: 'a private network address',
  'link-local': 'a link-local address',
  unspecified: 'an unspecified address',
};

function resolveAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true }, (e, addresses) => (e ? reject(e) : resolve(addresses)));
  });
}

/**
 * The policy for files a server names: a stdio server runs on this machine, so it counts as loopback;
 * an HTTP server counts as the kind of address its host resolves to.
 */
export async function destinationPolicyFor(serverUrl: string | undefined): Promise<DestinationPolicy> {
  if (serverUrl === undefined) return { serverKind: 'loopback', serverDescription: 'a local (stdio) server' };
  const url = new URL(serverUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let kinds: AddressKind[];
  try {
    kinds = isIP(host) ? [addressKind(host)] : (await resolveAll(host)).map((a) => addressKind(a.address));
  } catch {
    kinds = ['public'];
  }
  const kind = kinds.find((k): k is Exclude<AddressKind, 'public' | 'unspecified'> => k !== 'public' && k !== 'unspecified');
  return { ...(kind ? { serverKind: kind } : {}), serverDescription: url.origin };
}

/** Why an address may not be used under the policy, or undefined. */
export function refuseAddress(address: string, policy: DestinationPolicy): string | undefined {
  const kind = addressKind(address);
  if (kind === 'public' || kind === policy.serverKind) return undefined;
  return `${address} is ${KIND_WORDS[kind]}, and the MCP server (${policy.serverDescription}) is not on one`;
}

export class DestinationRefusedError extends HostError {
  static override readonly brand: string = 'DestinationRefusedError';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for node:http(s) requests that refuses addresses the policy does not allow, at connect time. */
export function guardedLookup(policy: DestinationPolicy) {
  return (hostname: string, options: LookupOneOptions & { all?: boolean }, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (e, addresses) => {
      if (e) {
        callback(e, '');
        return;
      }
      for (const a of addresses) {
        const why = refuseAddress(a.address, policy);
        if (why) {
          callback(new DestinationRefusedError(why), '');
          return;
        }
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * Checks a URL a server gave before anything is sent: scheme (HTTPS, or HTTP to loopback) and, for a literal
 * IP or a name that resolves now, the kind of address. The same address check runs again when the socket connects.
 */
export async function checkDestination(raw: string, policy: DestinationPolicy): Promise<{ url: URL } | { refused: string }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { refused: 'the server gave an address that is not a valid URL' };
  }
  const insecure = refuseInsecureUrl(url);
  if (insecure) return { refused: insecure };
  if (url.username || url.password) return { refused: `${url.origin} carries a user name or password in the URL` };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  try {
    const addresses = isIP(host) ? [host] : (await resolveAll(host)).map((a) => a.address);
    for (const address of addresses) {
      const why = refuseAddress(address, policy);
      if (why) return { refused: `${url.host}: ${why}` };
    }
  } catch (e) {
    return { refused: `${url.host} could not be resolved (${(e as NodeJS.ErrnoException).code ?? String(e)})` };
  }
  return { url };
}
