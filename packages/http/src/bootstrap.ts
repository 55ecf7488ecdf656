import { createLicenseClientFromEnv, type LicenseClient } from '@aplt/licensing';
import { commerceActorCheck, useActorCheck } from './auth-hooks';
import type { App } from './create-app';
import { runService } from './run-service';
import { pingPg, type TenantContext, tenantContextFromEnv } from './tenant-context';

export interface TenantServiceDeps extends TenantContext {
  licenses: LicenseClient;
}

/**
 * Start-up shared by the multi-tenant backends: registry and tenant pools, the license client
 * warmed for every registered tenant, the service's own app with the actor check of
 * `requireActor` against the tenant's commerce database, then listen. Resources close after
 * HTTP has stopped, in reverse order of creation.
 */
export async function bootTenantService(opts: {
  port: number;
  host: string;
  build: (deps: TenantServiceDeps) => Promise<App>;
}): Promise<App> {
  const ctx = tenantContextFromEnv();
  const licenses = createLicenseClientFromEnv();
  await licenses.start((await ctx.registry.list()).map((t) => t.id));
  const app = await opts.build({ ...ctx, licenses });
  // Tokens of deleted users or customers, and those issued before a password change, are refused.
  if (!app.hasDecorator('actorCheck')) useActorCheck(app, commerceActorCheck(ctx.databases));
  app.addReadinessCheck('control-db', () => pingPg(ctx.control));
  app.addHook('onClose', async () => {
    await licenses.close();
    await ctx.close();
  });
  await runService(app, { port: opts.port, host: opts.host });
  return app;
}
