/**
 * Runtime configuration, read on the server at request time. `NEXT_PUBLIC_*` names are read with a
 * computed key on purpose: Next inlines `process.env.NEXT_PUBLIC_X` at build time, and one build
 * serves every tenant and both gatekeeper settings (the fleet sets them when it starts the app).
 */
function read(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export const runtimeEnv = {
  /** The proxy the store API is reached through (tenant host `<tenant>.<domain>` on its port). */
  storeApiUrl: () => read('STORE_API_URL') ?? read('PUBLIC_PROXY_URL') ?? 'http://127.0.0.1:8080',
  /** The gatekeeper service itself (see data/gatekeeper.ts for why it is called directly). */
  gatekeeperUrl: () => read('GATEKEEPER_URL') ?? 'http://127.0.0.1:4105',
  proxyDomain: () => read('PROXY_DOMAIN') ?? 'localhost',
  gatekeeperEnabled: () => read(['NEXT_PUBLIC', 'GATEKEEPER_ENABLED'].join('_')) === 'true',
  tenantFeatures: () => read(['NEXT_PUBLIC', 'TENANT_FEATURES'].join('_')),
  /**
   * How long catalog answers (products, categories) and a tenant's feature list are reused per
   * tenant and query; 0 turns the cache off. The store API caches its pages 10 s as well.
   */
  cacheSeconds: () => seconds('STOREFRONT_CACHE_SECONDS', 10),
  /**
   * How long a visitor address the gatekeeper let in is let in again without asking (never a
   * refusal: an approval must open the shop at once); 0 asks on every request.
   */
  accessCacheSeconds: () => seconds('STOREFRONT_ACCESS_CACHE_SECONDS', 5),
};

function seconds(name: string, fallback: number): number {
  const value = Number(read(name) ?? fallback);
  return Number.isFinite(value) && value >= 0 ? Math.min(value, 3600) : fallback;
}
