import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import proxyAddr from 'proxy-addr';
import { ASSERTION_HEADER } from './assertion';
import { notFound } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An operator route (OpenAPI docs, metrics): not for the public, see operatorPlugin. */
    operator?: boolean;
  }
}

/** The role of access administrators, who may read operator routes through the proxy. */
export const OPERATOR_ROLE = 'access-admin';

export interface OperatorOptions {
  /** Peers that reach a service's own port directly (default: this machine). */
  networks?: string[];
  /** A service's own way to recognise an operator on a proxied request (the access service's session). */
  gate?: (request: FastifyRequest) => Promise<boolean> | boolean;
}

const isOperatorUrl = (url: string) => url === '/metrics' || url === '/docs' || url.startsWith('/docs/');

/**
 * `/docs` and `/metrics` describe the service to whoever reads them: they answer on the
 * service's own port (a direct, unproxied request from an operator network) or, through the
 * proxy, to an authenticated access administrator. Anyone else gets 404, as if they did not exist.
 */
export const operatorPlugin = fp(
  async (app: FastifyInstance, opts: OperatorOptions) => {
    const trusted = proxyAddr.compile(opts.networks ?? ['127.0.0.1/32', '::1/128']);
    app.addHook('onRoute', (route) => {
      if (isOperatorUrl(route.url)) route.config = { ...route.config, tenant: false, operator: true };
    });
    const direct = (request: FastifyRequest) =>
      request.headers['x-forwarded-for'] === undefined &&
      request.headers['x-forwarded-host'] === undefined &&
      request.headers[ASSERTION_HEADER] === undefined &&
      trusted(request.socket.remoteAddress ?? '', 0);
    app.addHook('onRequest', async (request) => {
      if (!request.routeOptions.config.operator) return;
      if (direct(request)) return;
      const token = request.headers[ASSERTION_HEADER];
      if (typeof token === 'string' && app.assertionVerifier) {
        const claims = await app.assertionVerifier.verify(token, request.hostname);
        if (claims?.roles.includes(OPERATOR_ROLE)) return;
      }
      if (opts.gate && (await opts.gate(request))) return;
      throw notFound(`Route ${request.method} ${request.url.split('?')[0]} not found`);
    });
  },
  { name: 'aplt-operator' },
);
