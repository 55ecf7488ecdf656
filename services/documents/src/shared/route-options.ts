import { HttpError, requireActor } from '@aplt/http';
import type { FeatureKey } from '@aplt/licensing';
import type { FastifyRequest } from 'fastify';

/*
 * Route options that say who may call a route and which licensed feature it belongs to. The
 * license guard reads `config.feature` of the matched route (before any token is looked at), so
 * a tenant without the feature gets 403 {message: 'Feature not available', feature} however the
 * path was spelled.
 */

/** An admin route (admin JWT) of `feature`. */
export const adminRoute = (feature: FeatureKey) => ({
  preHandler: requireActor('user'),
  config: { feature },
});

/** A customer-portal route (customer JWT) of `feature`. */
export const customerRoute = (feature: FeatureKey) => ({
  preHandler: requireActor('customer'),
  config: { feature },
});

/** A store route without a login (behind forward auth) of `feature`. */
export const storeRoute = (feature: FeatureKey) => ({ config: { feature } });

/** Whether the request's tenant holds `feature`, for checks that depend on the request's input. */
export const hasFeature = (request: FastifyRequest, feature: FeatureKey): boolean =>
  request.server.licenses.isFeatureEnabled(request.tenant.id, feature);

/** Refuses exactly as the license guard does (same body, same revision header). */
export function requireFeature(request: FastifyRequest, feature: FeatureKey): void {
  if (hasFeature(request, feature)) return;
  const revision = request.server.licenses.status(request.tenant.id).revision;
  throw new HttpError(
    403,
    'not_allowed',
    'Feature not available',
    { feature },
    { 'x-license-revision': revision ?? 'none' },
  );
}
