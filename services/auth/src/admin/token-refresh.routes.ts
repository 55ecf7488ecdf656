import type { CommerceDatabase } from '@aplt/db';
import { type App, unauthorized } from '@aplt/http';
import { z } from 'zod';
import type { AuthDeps } from '../shared/deps';
import { findIdentityById } from '../shared/identity.repository';
import { bearerToken } from '../shared/request-helpers';
import { verifySessionToken } from '../shared/session-token.service';

/**
 * Medusa v2's `POST /auth/token/refresh`: a valid session token of this tenant buys a fresh one.
 * Unlike Medusa it re-reads the identity, so a deleted identity or actor cannot keep itself
 * alive, and a token revoked by a password change cannot buy a fresh one.
 */
export function tokenRefreshRoutes(app: App, deps: AuthDeps): void {
  app.post(
    '/auth/token/refresh',
    { schema: { response: { 200: z.object({ token: z.string() }) } } },
    async (request) => {
      // Dated from before the check, so a password change meanwhile revokes the new token too.
      const startedAt = Date.now();
      const claims = await verifySessionToken(deps, request.tenant, bearerToken(request));
      if (!claims) throw unauthorized('Invalid token');
      const identity = await findIdentityById(
        deps.databases.commerce<CommerceDatabase>(request.tenant),
        claims.auth_identity_id,
      );
      if (!identity) throw unauthorized('Invalid token');
      const actorId = identity.appMetadata[`${claims.actor_type}_id`];
      const ttl =
        claims.actor_type === 'user'
          ? deps.config.JWT_TTL_SECONDS
          : deps.config.CUSTOMER_SESSION_DAYS * 86_400;
      const token = await deps.tokens.sessionToken(
        request.tenant,
        {
          actor_id: typeof actorId === 'string' ? actorId : '',
          actor_type: claims.actor_type,
          auth_identity_id: identity.id,
          app_metadata: identity.appMetadata,
        },
        ttl,
        startedAt,
      );
      return { token };
    },
  );
}
