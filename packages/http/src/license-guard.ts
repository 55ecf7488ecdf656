import { type FeatureKey, type FeatureSource, isFeatureKey } from '@aplt/licensing';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from './errors';

declare module 'fastify' {
  interface FastifyInstance {
    licenses: FeatureSource;
  }
  interface FastifyContextConfig {
    /**
     * The licensed feature this route belongs to: the guard answers 403 when the tenant does
     * not have it. Every `/admin/*` and `/store/*` route must say, or say `null` with a
     * `featureReason`; an app with an undeclared route does not start.
     */
    feature?: FeatureKey | null;
    /** Why a route belongs to no feature (required with `feature: null`). */
    featureReason?: string;
  }
}

/** Routes that must declare their feature: the tenant backend's admin and store APIs. */
export function needsFeatureDeclaration(url: string): boolean {
  return /^\/(admin|store)(\/|$)/.test(url);
}

/** The OpenAPI tag of a route's feature declaration: `feature:<key>` or `feature:none`. */
export const featureTag = (feature: string | null) => `feature:${feature ?? 'none'}`;

/** Throws when a route that must declare its feature does not, or declares an unknown one. */
export function checkFeatureDeclaration(route: Pick<RouteOptions, 'url' | 'method' | 'config'>): void {
  if (!needsFeatureDeclaration(route.url)) return;
  const config = (route.config ?? {}) as { feature?: unknown; featureReason?: unknown };
  const where = `${String(route.method)} ${route.url}`;
  if (config.feature === undefined)
    throw new Error(`${where} declares no licensed feature (config.feature, or null with featureReason)`);
  if (config.feature === null) {
    if (typeof config.featureReason !== 'string' || !config.featureReason.trim())
      throw new Error(`${where} has feature: null without a featureReason`);
    return;
  }
  if (typeof config.feature !== 'string' || !isFeatureKey(config.feature))
    throw new Error(`${where} declares unknown feature ${JSON.stringify(config.feature)}`);
}

/**
 * Answers 403 {message: 'Feature not available', feature} on every route whose declared feature
 * the tenant does not have. The guard reads the matched route's own declaration, never the URL,
 * so no spelling of a path (percent-encoding, case, dot segments) can reach a route unguarded.
 * The license revision goes in a header so an operator can see which state a refusal came from.
 */
export const licenseGuardPlugin = fp(
  async (app: FastifyInstance, opts: { licenses: FeatureSource }) => {
    app.decorate('licenses', opts.licenses);
    app.addHook('onRoute', (route) => {
      checkFeatureDeclaration(route);
      // The declaration shows in the OpenAPI document as a tag, so routes are grouped by licensed
      // feature and the route inventory can be read from a running service.
      if (needsFeatureDeclaration(route.url)) {
        const feature = (route.config as { feature?: string | null } | undefined)?.feature;
        const schema = (route.schema ?? {}) as { tags?: string[] };
        route.schema = { ...schema, tags: [...(schema.tags ?? []), featureTag(feature ?? null)] };
      }
    });
    app.addHook('onRequest', async (request) => {
      const feature = request.routeOptions.config.feature;
      if (!feature || !request.tenant) return;
      if (opts.licenses.isFeatureEnabled(request.tenant.id, feature)) return;
      const revision = opts.licenses.status(request.tenant.id).revision;
      throw new HttpError(
        403,
        'not_allowed',
        'Feature not available',
        { feature },
        { 'x-license-revision': revision ?? 'none' },
      );
    });
  },
  { name: 'aplt-license-guard', dependencies: ['aplt-tenant'] },
);
