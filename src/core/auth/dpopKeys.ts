// DPoP keys kept with the tokens they bind (RFC 9449): a token bound to one key is refused with another, so a
// later run (the CLI) or window signs its proofs with the key the tokens were issued for. The private key is
// stored only where the tokens are (SecretStorage, the CLI's 0600 token file), never logged.
import { webcrypto } from 'node:crypto';
import { DPOP_SUPPORTED_ALGS, generateDpopKeyPair, type DpopAlg, type DpopKeyPair } from '@modelcontextprotocol/client';

type JsonWebKey = webcrypto.JsonWebKey;
type EcKeyImportParams = webcrypto.EcKeyImportParams;
type RsaHashedImportParams = webcrypto.RsaHashedImportParams;
type Algorithm = webcrypto.Algorithm;
const { subtle } = webcrypto;

/** A DPoP key as stored beside the tokens: its algorithm and private JWK (which carries the public part). */
export interface StoredDpopKey {
  alg: DpopAlg;
  privateJwk: JsonWebKey;
}

type ImportAlgorithm = EcKeyImportParams | RsaHashedImportParams | Algorithm;

const IMPORT_AS: Record<DpopAlg, ImportAlgorithm> = {
  ES256: { name: 'ECDSA', namedCurve: 'P-256' },
  ES384: { name: 'ECDSA', namedCurve: 'P-384' },
  ES512: { name: 'ECDSA', namedCurve: 'P-521' },
  RS256: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
  RS384: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-384' },
  RS512: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-512' },
  PS256: { name: 'RSA-PSS', hash: 'SHA-256' },
  PS384: { name: 'RSA-PSS', hash: 'SHA-384' },
  PS512: { name: 'RSA-PSS', hash: 'SHA-512' },
  EdDSA: { name: 'Ed25519' },
};

/** The public members of a JWK, in RFC 7638's order (the thumbprint's input). */
function publicMembers(jwk: JsonWebKey): JsonWebKey {
  switch (jwk.kty) {
    case 'EC':
      return { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y };
    case 'OKP':
      return { crv: jwk.crv, kty: jwk.kty, x: jwk.x };
    case 'RSA':
      return { e: jwk.e, kty: jwk.kty, n: jwk.n };
    default:
      throw new Error(`unsupported DPoP key type ${String(jwk.kty)}`);
  }
}

async function thumbprint(publicJwk: JsonWebKey): Promise<string> {
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(publicMembers(publicJwk))));
  return Buffer.from(digest).toString('base64url');
}

/** A new key pair for `alg`, and its form to store once tokens are bound to it. */
export async function newDpopKey(alg: DpopAlg): Promise<{ keyPair: DpopKeyPair; stored: StoredDpopKey }> {
  const keyPair = await generateDpopKeyPair({ alg, extractable: true });
  return { keyPair, stored: { alg, privateJwk: await subtle.exportKey('jwk', keyPair.privateKey) } };
}

/** The key pair of a stored key; undefined when what is stored is not a usable key. */
export async function importDpopKey(stored: unknown): Promise<DpopKeyPair | undefined> {
  const s = stored as Partial<StoredDpopKey> | undefined;
  if (!s || !(DPOP_SUPPORTED_ALGS as readonly string[]).includes(String(s.alg)) || typeof s.privateJwk !== 'object' || !s.privateJwk) return undefined;
  const alg = s.alg as DpopAlg;
  try {
    const publicJwk = publicMembers(s.privateJwk);
    const privateKey = await subtle.importKey('jwk', s.privateJwk, IMPORT_AS[alg], false, ['sign']);
    const publicKey = await subtle.importKey('jwk', publicJwk, IMPORT_AS[alg], true, ['verify']);
    return { privateKey, publicKey, publicJwk: publicJwk, thumbprint: await thumbprint(publicJwk), alg };
  } catch {
    return undefined;
  }
}
