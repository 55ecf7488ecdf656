import { type App, unauthorized } from '@aplt/http';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuthDeps } from '../shared/deps';
import { loginRateLimit } from '../shared/rate-limit';
import { bearerToken } from '../shared/request-helpers';
import { MAIL_LANGUAGES } from '../shared/mail-templates';
import { adminLogin, requestPasswordReset, updatePasswordWithToken } from './emailpass.service';

export interface PasswordSyncTrigger {
  /** Queues the copy of the admin's new hash to every other tenant; runId names the run. */
  enqueue(job: { sourceTenantId: string; entityId: string; provider: string; runId: string }): Promise<void>;
  newRunId(): string;
}

const actorParams = z.object({
  actor_type: z.enum(['user', 'customer']),
  auth_provider: z.enum(['emailpass']),
});
const tokenBody = z.object({ token: z.string() });
const successBody = z.object({ success: z.literal(true) });

/** Medusa v2 admin routes: login, reset request, password update (spec 1, Authentication 1-3). */
export function emailpassRoutes(app: App, deps: AuthDeps, sync: PasswordSyncTrigger): void {
  const pendingSync = new WeakMap<FastifyRequest, Parameters<PasswordSyncTrigger['enqueue']>[0]>();

  app.post(
    '/auth/user/emailpass',
    {
      config: loginRateLimit(deps.config),
      schema: {
        body: z.object({ email: z.string().min(1).max(320), password: z.string().min(1).max(1024) }),
        response: { 200: tokenBody },
      },
    },
    async (request) => ({
      token: await adminLogin(deps, request.tenant, request.body.email, request.body.password),
    }),
  );

  app.post(
    '/auth/:actor_type/:auth_provider/reset-password',
    {
      config: loginRateLimit(deps.config),
      schema: {
        params: actorParams,
        // lang: the storefront page's language, for a customer without a preferred one (staff: English).
        body: z.object({ identifier: z.string().min(1).max(320), lang: z.enum(MAIL_LANGUAGES).optional() }),
      },
    },
    async (request, reply) => {
      const { actor_type, auth_provider } = request.params;
      await requestPasswordReset(
        deps,
        request.tenant,
        actor_type,
        auth_provider,
        request.body.identifier,
        request.body.lang,
      );
      return reply.status(201).send();
    },
  );

  app.post(
    '/auth/:actor_type/:auth_provider/update',
    {
      schema: {
        params: actorParams,
        // The e-mail comes from the token, never from the body (Medusa v2 2.10 behaviour).
        body: z.object({ password: z.string().max(1024) }),
        response: { 200: successBody },
      },
      // Medusa's rule: a missing token is as invalid as a bad one.
      preValidation: async (request) => {
        if (!bearerToken(request)) throw unauthorized('Invalid token');
      },
      // Spec: after a 200 the sync starts in the background, never delaying the response.
      onResponse: async (request, reply) => {
        const job = pendingSync.get(request);
        if (!job || reply.statusCode !== 200) return;
        sync
          .enqueue(job)
          .catch((err: unknown) => request.log.error({ err, runId: job.runId }, 'password sync not queued'));
      },
    },
    async (request, reply) => {
      const { actor_type, auth_provider } = request.params;
      const { entityId } = await updatePasswordWithToken(
        deps,
        request.tenant,
        actor_type,
        auth_provider,
        bearerToken(request),
        request.body.password,
      );
      if (actor_type === 'user') {
        const runId = sync.newRunId();
        pendingSync.set(request, {
          sourceTenantId: request.tenant.id,
          entityId,
          provider: auth_provider,
          runId,
        });
        void reply.header('x-password-sync-run', runId);
      }
      return { success: true as const };
    },
  );
}
