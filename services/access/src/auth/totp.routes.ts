import { z } from 'zod';
import type { AccessApp } from '../app';
import type { IdentityCache } from '../forward-auth/identity-cache';
import { ensureCsrfToken, requireSession, sessionIdentity } from './guards';
import type { LoginDeps } from './login.service';
import { securityPage } from './security-page';
import * as totp from './totp.service';

const password = z.object({ password: z.string().min(1).max(1000) });
const recoveryCodes = z.object({ recovery_codes: z.array(z.string()) });
const status = z.object({
  enabled: z.boolean(),
  enabled_at: z.string().nullable(),
  recovery_codes_left: z.number(),
});

/**
 * The signed-in user's own second factor: an authenticator app (TOTP) instead of the e-mailed
 * code, with recovery codes; every change needs the current password.
 */
export async function totpRoutes(app: AccessApp, deps: LoginDeps & { identities: IdentityCache }) {
  const session = requireSession(deps.identities);
  const userId = (request: { identity: { userId: number } | null }) => request.identity!.userId;

  app.get('/account/security', async (request, reply) => {
    const identity = await sessionIdentity(deps.identities, request);
    if (!identity)
      return reply.redirect(
        `/login?rd=${encodeURIComponent(`${request.protocol}://${request.host}/account/security`)}`,
      );
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(securityPage({ csrf: ensureCsrfToken(request, reply), email: identity.email }));
  });

  app.get('/api/auth/totp', { preHandler: session, schema: { response: { 200: status } } }, async (request) =>
    totp.totpStatus(deps, userId(request)),
  );
  app.post(
    '/api/auth/totp/setup',
    {
      preHandler: session,
      schema: {
        body: password,
        response: {
          200: z.object({
            secret: z.string(),
            otpauth_uri: z.string(),
            qr_svg: z.string(),
            expires_in: z.number(),
          }),
        },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return totp.startEnrolment(deps, userId(request), request.body.password, request.ip);
    },
  );
  app.post(
    '/api/auth/totp/enable',
    {
      preHandler: session,
      schema: {
        body: z.object({ code: z.string().regex(/^\d{6}$/) }),
        response: { 200: recoveryCodes.extend({ enabled: z.literal(true) }) },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return totp.finishEnrolment(deps, userId(request), request.body.code);
    },
  );
  app.post(
    '/api/auth/totp/disable',
    {
      preHandler: session,
      schema: { body: password, response: { 200: z.object({ enabled: z.literal(false) }) } },
    },
    async (request) => totp.removeAuthenticator(deps, userId(request), request.body.password, request.ip),
  );
  app.post(
    '/api/auth/totp/recovery-codes',
    { preHandler: session, schema: { body: password, response: { 200: recoveryCodes } } },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return totp.renewRecoveryCodes(deps, userId(request), request.body.password, request.ip);
    },
  );
}
