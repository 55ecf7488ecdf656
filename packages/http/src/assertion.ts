import { createPrivateKey, createPublicKey, type KeyObject, sign } from 'node:crypto';
import { importSPKI, jwtVerify, errors } from 'jose';
import { normaliseHost } from '@aplt/db';

/**
 * The identity assertion: on allow, the access service signs who passed and why (Pomerium's
 * `X-Pomerium-Jwt-Assertion` is the model); the proxy copies the header to the upstream,
 * replacing any client value; every tenant backend verifies it. A request that did not pass the
 * proxy has none and is refused, so a backend port reached directly gives nothing away.
 */
export const ASSERTION_HEADER = 'x-access-assertion';
export const ASSERTION_ISSUER = 'aplt-access';
export const ASSERTION_AUDIENCE = 'aplt-backend';
/** Lifetime of one assertion. The signer reuses one for at most half of it. */
export const ASSERTION_TTL_SECONDS = 60;

export interface AssertionClaims {
  iss: typeof ASSERTION_ISSUER;
  aud: typeof ASSERTION_AUDIENCE;
  /**
   * The access user's e-mail, `whitelist` for an allowed address without a login, or `visitor`
   * for anyone on a tenant's public shop host.
   */
  sub: string;
  /** Normalised host the decision was made for (lower case, no port, no trailing dot). */
  host: string;
  /** Tenant of that host in the registry, or null for a host the registry does not know. */
  tenant: string | null;
  /** Why the request passed: whitelist, session, device, or shop (a public shop host). */
  reason: 'whitelist' | 'session' | 'device' | 'shop';
  roles: string[];
  iat: number;
  exp: number;
}

export type AssertionInput = Omit<AssertionClaims, 'iss' | 'aud' | 'iat' | 'exp'>;

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const HEADER = b64url(JSON.stringify({ alg: 'EdDSA', typ: 'JWT' }));

export function privateKeyFromBase64(der: string): KeyObject {
  return createPrivateKey({ key: Buffer.from(der, 'base64'), format: 'der', type: 'pkcs8' });
}

export function publicKeyFromBase64(der: string): KeyObject {
  return createPublicKey({ key: Buffer.from(der, 'base64'), format: 'der', type: 'spki' });
}

/**
 * Signs assertions synchronously (forward auth answers from memory on its common path) and keeps
 * each one while it has more than half its life left: the same client on the same host is asked
 * about on every request, and a signature per request would cost more than the decision.
 */
export class AssertionSigner {
  private readonly key: KeyObject;
  private readonly cache = new Map<string, { token: string; renewAt: number }>();

  constructor(privateKeyDer: string) {
    this.key = privateKeyFromBase64(privateKeyDer);
  }

  /** `cacheKey` must change whenever any claim would (host, user, roles, reason). */
  assertion(cacheKey: string, input: () => AssertionInput, nowMs = Date.now()): string {
    const hit = this.cache.get(cacheKey);
    if (hit && hit.renewAt > nowMs) return hit.token;
    const token = this.sign(input(), nowMs);
    if (this.cache.size >= 10_000) this.cache.clear();
    this.cache.set(cacheKey, { token, renewAt: nowMs + (ASSERTION_TTL_SECONDS * 1000) / 2 });
    return token;
  }

  sign(input: AssertionInput, nowMs = Date.now()): string {
    const iat = Math.floor(nowMs / 1000);
    const claims: AssertionClaims = {
      iss: ASSERTION_ISSUER,
      aud: ASSERTION_AUDIENCE,
      ...input,
      host: normaliseHost(input.host),
      iat,
      exp: iat + ASSERTION_TTL_SECONDS,
    };
    const signingInput = `${HEADER}.${b64url(JSON.stringify(claims))}`;
    return `${signingInput}.${sign(null, Buffer.from(signingInput), this.key).toString('base64url')}`;
  }
}

/**
 * Verifies assertions with the access service's public key (jose, so what we sign by hand is
 * checked by a standard implementation). A verified token is remembered until it expires: the
 * proxy sends the same one for half a minute.
 */
export class AssertionVerifier {
  private readonly key: Promise<CryptoKey>;
  private readonly known = new Map<string, AssertionClaims>();

  constructor(publicKeyDer: string) {
    const pem = `-----BEGIN PUBLIC KEY-----\n${publicKeyDer}\n-----END PUBLIC KEY-----`;
    this.key = importSPKI(pem, 'EdDSA');
    // An unusable key fails at start-up, not on the first request.
    publicKeyFromBase64(publicKeyDer);
  }

  /** The claims when `token` is a live assertion for `host`, else undefined. */
  async verify(token: string, host: string, nowMs = Date.now()): Promise<AssertionClaims | undefined> {
    let claims = this.known.get(token);
    if (!claims) {
      try {
        const { payload } = await jwtVerify(token, await this.key, {
          algorithms: ['EdDSA'],
          issuer: ASSERTION_ISSUER,
          audience: ASSERTION_AUDIENCE,
          requiredClaims: ['exp', 'iat', 'sub'],
          currentDate: new Date(nowMs),
        });
        claims = payload as unknown as AssertionClaims;
      } catch (err) {
        if (err instanceof errors.JOSEError) return undefined;
        throw err;
      }
      if (this.known.size >= 10_000) this.known.clear();
      this.known.set(token, claims);
    }
    if (claims.exp * 1000 <= nowMs) {
      this.known.delete(token);
      return undefined;
    }
    return claims.host === normaliseHost(host) ? claims : undefined;
  }
}
