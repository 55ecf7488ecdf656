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
};
