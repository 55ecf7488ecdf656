import { type App, SESSION_COOKIE, unauthorized } from '@aplt/http';
import { z } from 'zod';
import type { AuthDeps } from '../shared/deps';
import { bearerToken } from '../shared/request-helpers';
import { verifySessionToken } from '../shared/session-token.service';

const authContext = z.object({
  actor_id: z.string(),
  actor_type: z.string(),
  auth_identity_id: z.string(),
  app_metadata: z.record(z.string(), z.unknown()),
});

/**
 * Medusa v2's cookie sessions, which its admin dashboard uses by default: `POST /auth/session`
 * with a valid token of this tenant answers `{user: <auth context>}` and sets the `connect.sid`
 * cookie; every service then accepts that cookie wherever it accepts the bearer token.
 * `DELETE /auth/session` clears it. The cookie carries the signed token itself (httpOnly,
 * SameSite=Strict), so no session store is needed: it expires with the token, and a password
 * change revokes it with the token (`requireActor` checks the identity's revocation time). A
 * token of a deleted user or a revoked one is refused here too.
 */
export function sessionRoutes(app: App, deps: AuthDeps): void {
  app.post(
    '/auth/session',
    { schema: { response: { 200: z.object({ user: authContext }) } } },
    async (request, reply) => {
      const raw = bearerToken(request);
      const claims = await verifySessionToken(deps, request.tenant, raw);
      if (!raw || !claims || !claims.actor_id) throw unauthorized('Invalid token');
      void reply.setCookie(SESSION_COOKIE, raw, {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        secure: request.protocol === 'https',
        maxAge: Math.max(0, claims.exp - Math.floor(Date.now() / 1000)),
      });
      return {
        user: {
          actor_id: claims.actor_id,
          actor_type: claims.actor_type,
          auth_identity_id: claims.auth_identity_id,
          app_metadata: claims.app_metadata ?? {},
        },
      };
    },
  );

  app.delete(
    '/auth/session',
    { schema: { response: { 200: z.object({ success: z.literal(true) }) } } },
    async (request, reply) => {
      void reply.clearCookie(SESSION_COOKIE, {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        secure: request.protocol === 'https',
      });
      return { success: true as const };
    },
  );
}
