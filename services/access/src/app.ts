import { type TenantRegistry } from '@aplt/db';
import type { AccessDb } from './db';
import { type App, AssertionSigner, createApp, csrfGuard, OPERATOR_ROLE, pingPg } from '@aplt/http';
import type { Redis } from 'ioredis';
import { authRoutes } from './auth/auth.routes';
import { totpRoutes } from './auth/totp.routes';
import { usersRoutes } from './auth/users.routes';
import { rejectBadCookies, sessionIdentity } from './auth/guards';
import { CSRF_COOKIE } from './auth/tokens';
import { type OtpChannel, otpChannelFromConfig } from './auth/otp-channel';
import type { Config } from './config';
import { ForwardAssertions } from './forward-auth/assertions';
import { HostTenants } from './forward-auth/host-tenants';
import { IdentityCache } from './forward-auth/identity-cache';
import { DecisionMetrics } from './forward-auth/metrics';
import { validateRoutes } from './forward-auth/validate.routes';
import { Whitelist } from './forward-auth/whitelist';
import { accessCacheEvents } from './forward-auth/access-cache-events';
import { noPublisher, redisLicensePublisher } from './licensing/license-events';
import { licenseRoutes } from './licensing/license.routes';

export type AccessApp = App;

export interface Deps {
  db: AccessDb;
  registry: TenantRegistry;
  /**
   * Publishes license changes (push invalidation; without it clients converge by polling) and
   * keeps the forward-auth caches of every replica in step (without it: one process, TTL only).
   */
  redis?: Redis | null;
  /** Second-factor channel; by default from ACCESS_OTP_CHANNEL. */
  otp?: OtpChannel;
  /** Where the log lines go (a file path or descriptor); default stdout. */
  logDestination?: string | number;
}

/** Builds the access service; never listens. */
export async function buildApp(deps: Deps, config: Config) {
  const identities = new IdentityCache(
    deps.db,
    config.ACCESS_CACHE_SECONDS * 1000,
    config.ACCESS_SESSION_IDLE_MINUTES,
  );
  const app = await createApp({
    name: 'access',
    logLevel: config.LOG_LEVEL,
    prettyLogs: config.LOG_PRETTY,
    ...(deps.logDestination === undefined ? {} : { logDestination: deps.logDestination }),
    trustedProxies: config.TRUSTED_PROXIES,
    // /metrics and /docs through the proxy: only for an access admin signed in on this host.
    operators: {
      gate: async (request) =>
        (await sessionIdentity(identities, request))?.roles.includes(OPERATOR_ROLE) === true,
    },
  });
  app.addReadinessCheck('access-db', () => pingPg(deps.db));
  app.decorateRequest('identity', null);
  app.addHook('preValidation', rejectBadCookies);
  // Every state-changing request of a signed-in browser carries the CSRF token (@aplt/http).
  app.addHook('preHandler', await csrfGuard(app, { cookie: CSRF_COOKIE }));

  const whitelist = new Whitelist(
    deps.db,
    config.ACCESS_STATIC_WHITELIST,
    config.ACCESS_CACHE_SECONDS * 1000,
  );
  if (deps.redis) {
    const events = accessCacheEvents({
      redis: deps.redis,
      url: config.REDIS_URL,
      prefix: config.REDIS_PREFIX,
      identities,
      whitelist,
      log: app.log,
    });
    // Not a readiness check: with Redis down forward auth keeps working, on TTL-bounded caches.
    app.addHook('onClose', async () => events.close());
  }
  const metrics = new DecisionMetrics();
  const publisher =
    deps.redis && config.LICENSE_PUSH ? redisLicensePublisher(deps.redis, config.REDIS_PREFIX) : noPublisher;
  const ownOtp = deps.otp ? null : otpChannelFromConfig(config, app.log);
  const otp = deps.otp ?? ownOtp!;
  if (ownOtp) app.addHook('onClose', async () => ownOtp.close());

  const hosts = new HostTenants(deps.registry, config.ACCESS_CACHE_SECONDS * 1000, app.log);
  const assertions = new ForwardAssertions(new AssertionSigner(config.ACCESS_ASSERTION_PRIVATE_KEY));

  await validateRoutes(app, { db: deps.db, config, whitelist, identities, metrics, hosts, assertions });
  await authRoutes(app, { db: deps.db, config, otp, identities });
  await totpRoutes(app, { db: deps.db, config, otp, identities });
  await usersRoutes(app, { db: deps.db, registry: deps.registry, identities });
  await licenseRoutes(app, {
    db: deps.db,
    registry: deps.registry,
    publisher,
    identities,
    serviceToken: config.SERVICE_TOKEN,
    log: app.log,
  });
  app.decorate('accessMetrics', metrics);
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    accessMetrics: DecisionMetrics;
  }
}
