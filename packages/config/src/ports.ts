/** Default internal ports; one place so the proxy, the fleet runner and compose agree. */
export const ServicePorts = {
  access: 3334,
  auth: 4101,
  'password-sync': 4102,
  documents: 4103,
  catalog: 4104,
  gatekeeper: 4105,
  portal: 4106,
  devprojects: 4107,
  'logo-modal': 4108,
  admin: 4109,
  // apps/storefront: Next.js (`next start`), not a Fastify service (deploy/fleet/manifest.ts).
  storefront: 4110,
} as const;

export type ServiceName = keyof typeof ServicePorts;
export const serviceNames = Object.keys(ServicePorts) as ServiceName[];
