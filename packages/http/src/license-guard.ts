import { type FeatureSource, featureForPath } from '@aplt/licensing';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from './errors';

declare module 'fastify' {
  interface FastifyInstance {
    licenses: FeatureSource;
  }
}

/**
 * Answers 403 {message: 'Feature not available', feature} on every route the route-to-feature
 * map assigns to a feature the tenant does not have. The license revision goes in a header so
 * an operator can see which license state a refusal came from.
 */
export const licenseGuardPlugin = fp(
  async (app: FastifyInstance, opts: { licenses: FeatureSource }) => {
    app.decorate('licenses', opts.licenses);
    app.addHook('onRequest', async (request) => {
      if (!request.tenant || !request.routeOptions.url) return;
      const feature = featureForPath(request.url);
      if (!feature || opts.licenses.isFeatureEnabled(request.tenant.id, feature)) return;
      const revision = opts.licenses.status(request.tenant.id).revision;
      throw new HttpError(
        403,
        'not_allowed',
        'Feature not available',
        { feature },
        {
          'x-license-revision': revision ?? 'none',
        },
      );
    });
  },
  { name: 'aplt-license-guard', dependencies: ['aplt-tenant'] },
);
