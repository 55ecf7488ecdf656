import type { PortalDb } from './db';
import { sql } from '@aplt/db';
import { createApp, issueCsrfToken } from '@aplt/http';
import bcrypt from 'bcrypt';
import { authRoutes } from './auth/auth.routes';
import { type OtpChannel, otpChannelFromConfig } from './auth/otp-channel';
import type { Config } from './config';
import { registerCsrf } from './csrf';
import { portalPage } from './portal-page';
import { DevProjectsClient } from './tickets/devprojects.client';
import { ticketRoutes } from './tickets/ticket.routes';

export interface Deps {
  db: PortalDb;
  /** Where the second-factor codes go; by default PORTAL_OTP_CHANNEL's (closed with the app). */
  otp?: OtpChannel;
}

/** Builds the customer portal service (MariaDB); never listens. */
export async function buildApp(deps: Deps, config: Config) {
  const app = await createApp({
    name: 'portal',
    logLevel: config.LOG_LEVEL,
    prettyLogs: config.LOG_PRETTY,
    trustedProxies: config.TRUSTED_PROXIES,
  });
  // Over-limit bodies (1 MiB, Fastify's default) are read to their end before the 413 goes out.
  app.decorateRequest('portal', null);
  app.addReadinessCheck('portal-db', async () => {
    await sql`select 1`.execute(deps.db);
  });
  await registerCsrf(app);
  const ownOtp = deps.otp ? null : otpChannelFromConfig(config, app.log);
  const otp = deps.otp ?? ownOtp!;
  if (ownOtp) app.addHook('onClose', async () => ownOtp.close());
  const dummyHash = await bcrypt.hash('no such user', config.PORTAL_BCRYPT_ROUNDS);
  authRoutes(app, { db: deps.db, config, otp, dummyHash });
  ticketRoutes(app, {
    db: deps.db,
    devprojects: new DevProjectsClient(config.DEVPROJECTS_URL, config.SERVICE_TOKEN),
    portalPublicUrl: config.PORTAL_PUBLIC_URL,
  });
  // A token for API clients; the page carries its own.
  app.get('/api/csrf', async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return { csrf_token: issueCsrfToken(request, reply) };
  });
  for (const path of ['/', '/support'])
    app.get(path, { schema: { hide: true } }, async (request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(portalPage({ csrf: issueCsrfToken(request, reply) })),
    );
  return app;
}
