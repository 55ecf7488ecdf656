import type { TenantRecord, TenantRegistry } from '@aplt/db';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { notFound } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The tenant whose host the request came in on; null only on routes with `config.tenant: false`. */
    tenant: TenantRecord;
  }
  interface FastifyContextConfig {
    /** false: the route serves no tenant (health, docs, modal host). */
    tenant?: boolean;
    public?: boolean;
  }
}

/** Resolves the tenant from the Host header through the registry: the one place that does. */
export const tenantPlugin = fp(
  async (app: FastifyInstance, opts: { registry: TenantRegistry }) => {
    app.decorateRequest('tenant', null as unknown as TenantRecord);
    app.addHook('onRequest', async (request) => {
      if (!request.routeOptions.url || request.routeOptions.config.tenant === false) return;
      const tenant = await opts.registry.byHost(request.hostname);
      if (!tenant) throw notFound(`Unknown tenant host ${request.hostname}`, { host: request.hostname });
      request.tenant = tenant;
    });
  },
  { name: 'aplt-tenant' },
);
