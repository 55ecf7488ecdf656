import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ASSERTION_HEADER, type AssertionClaims, AssertionVerifier } from './assertion';
import { unauthorized } from './errors';
import { safeEqual } from './safe-compare';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the access service let through (from the verified assertion); null on exempt routes. */
    access: AssertionClaims | null;
  }
  interface FastifyContextConfig {
    /** An internal route: callable only with the service token, never with an assertion. */
    serviceToken?: boolean;
  }
}

export interface TrustOptions {
  /** Public key (SPKI DER, base64) of the access service's assertions. */
  assertionPublicKey: string;
  /** Bearer token of internal routes (`config.serviceToken`); unset: such routes always refuse. */
  serviceToken?: string | undefined;
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The token of `Authorization: Bearer <token>`, if any. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
}

/**
 * The tenant backend's trust boundary: every tenant route needs an identity assertion signed by
 * the access service for this request's host (the proxy adds it after forward auth); internal
 * routes need the service token instead. Health routes (`config.tenant: false`) stay open for
 * the proxy's and the runner's checks. Registered before tenant resolution, so a caller that went
 * around the proxy learns nothing, not even whether a host exists.
 */
export const trustPlugin = fp(
  async (app: FastifyInstance, opts: TrustOptions) => {
    const verifier = new AssertionVerifier(opts.assertionPublicKey);
    app.decorateRequest('access', null);
    app.decorate('assertionVerifier', verifier);
    app.addHook('onRequest', async (request) => {
      const config = request.routeOptions.config;
      if (!request.routeOptions.url) return;
      if (config.serviceToken) {
        if (!opts.serviceToken || !safeEqual(bearerToken(request), opts.serviceToken))
          throw unauthorized('Service token required');
        return;
      }
      if (config.tenant === false) return;
      const token = one(request.headers[ASSERTION_HEADER]);
      const claims = token ? await verifier.verify(token, request.hostname) : undefined;
      if (!claims) throw unauthorized('This request did not pass the access service');
      // A public shop host's visitor (forward auth's `shop` policy) may reach store routes only,
      // as the storefront does for its visitor: never an admin, auth or operator route.
      if (claims.reason === 'shop' && !request.routeOptions.url.startsWith('/store/'))
        throw unauthorized('This request did not pass the access service');
      request.access = claims;
    });
  },
  { name: 'aplt-trust' },
);

declare module 'fastify' {
  interface FastifyInstance {
    assertionVerifier?: AssertionVerifier;
  }
}
