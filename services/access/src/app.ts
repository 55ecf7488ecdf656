import { type Kysely, type TenantRegistry } from '@aplt/db';
import { type App, createApp, pingPg } from '@aplt/http';
import type { Redis } from 'ioredis';
import { authRoutes } from './auth/auth.routes';
import { usersRoutes } from './auth/users.routes';
import { csrfCheck } from './auth/guards';
import { type OtpChannel, otpChannelFromConfig } from './auth/otp-channel';
import type { Config } from './config';
import { IdentityCache } from './forward-auth/identity-cache';
import { DecisionMetrics } from './forward-auth/metrics';
import { validateRoutes } from './forward-auth/validate.routes';
import { Whitelist } from './forward-auth/whitelist';
import { noPublisher, redisLicensePublisher } from './licensing/license-events';
import { licenseRoutes } from './licensing/license.routes';

export type AccessApp = App;

export interface Deps {
  db: Kysely<any>;
  registry: TenantRegistry;
  /** Publishes license changes (push invalidation); without it clients converge by polling. */
  redis?: Redis | null;
  /** Second-factor channel; by default from ACCESS_OTP_CHANNEL. */
  otp?: OtpChannel;
}

/** Builds the access service; never listens. */
export async function buildApp(deps: Deps, config: Config) {
  const app = await createApp({
    name: 'access',
    logLevel: config.LOG_LEVEL,
    prettyLogs: config.LOG_PRETTY,
    trustedProxies: config.TRUSTED_PROXIES,
  });
  app.addReadinessCheck('access-db', () => pingPg(deps.db));
  app.decorateRequest('identity', null);
  app.addHook('preHandler', csrfCheck);

  const identities = new IdentityCache(
    deps.db,
    config.ACCESS_CACHE_SECONDS * 1000,
    config.ACCESS_SESSION_IDLE_MINUTES,
  );
  const whitelist = new Whitelist(
    deps.db,
    config.ACCESS_STATIC_WHITELIST,
    config.ACCESS_CACHE_SECONDS * 1000,
  );
  const metrics = new DecisionMetrics();
  const publisher =
    deps.redis && config.LICENSE_PUSH ? redisLicensePublisher(deps.redis, config.REDIS_PREFIX) : noPublisher;
  const otp = deps.otp ?? otpChannelFromConfig(config, app.log);

  await validateRoutes(app, { db: deps.db, config, whitelist, identities, metrics });
  await authRoutes(app, { db: deps.db, config, otp, identities });
  await usersRoutes(app, { db: deps.db, registry: deps.registry, identities });
  await licenseRoutes(app, { db: deps.db, registry: deps.registry, publisher, identities, log: app.log });
  app.decorate('accessMetrics', metrics);
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    accessMetrics: DecisionMetrics;
  }
}
