import type { ServiceName } from '@aplt/config';

/** `tenant`: any tenant backend host (`<tenant>.<domain>`); the others are fixed hosts. */
export type HostKind = 'tenant' | 'access' | 'portal' | 'modal';

export interface Route {
  host: HostKind;
  /** Whole-segment path prefix: `/admin/aplt/orders` matches `/admin/aplt/orders` and `/admin/aplt/orders/...`. */
  prefix: string;
  service: ServiceName;
  forwardAuth: boolean;
  /** Remove the prefix before forwarding (the per-service health paths `/-/<service>/...`). */
  stripPrefix?: boolean;
}

/** Identity headers the access service returns on allow; the proxy copies them upstream, replacing client values. */
export const authResponseHeaders = ['X-Auth-User', 'X-Auth-Roles', 'X-Auth-Via'] as const;

const tenant = (prefix: string, service: ServiceName): Route => ({
  host: 'tenant',
  prefix,
  service,
  forwardAuth: true,
});

const perServiceHealth: Route[] = (
  ['auth', 'password-sync', 'documents', 'catalog', 'gatekeeper', 'devprojects', 'admin'] as const
).map((service) => ({
  host: 'tenant',
  prefix: `/-/${service}`,
  service,
  forwardAuth: true,
  stripPrefix: true,
}));

/**
 * The proxy's route table: which host and path go to which service, and whether the access
 * service must approve the request first. Both the Traefik configuration and the Caddyfile are
 * generated from it; nothing else decides routing. The longest prefix wins on a host.
 */
export const routeTable: readonly Route[] = [
  // The access service's own host is never behind forward auth: that would loop on its login page.
  { host: 'access', prefix: '/', service: 'access', forwardAuth: false },
  // Portal and logo modal are public and carry their own protection (sessions, CORS, tokens).
  { host: 'portal', prefix: '/', service: 'portal', forwardAuth: false },
  { host: 'modal', prefix: '/', service: 'logo-modal', forwardAuth: false },

  tenant('/auth', 'auth'),
  tenant('/store/auth', 'auth'),
  tenant('/store/customer', 'auth'),
  tenant('/store/customers', 'auth'),

  tenant('/admin/aplt/quotations', 'documents'),
  tenant('/admin/aplt/orders', 'documents'),
  tenant('/admin/aplt/invoices', 'documents'),
  tenant('/admin/aplt/credit-notes', 'documents'),
  tenant('/admin/aplt/payments', 'documents'),
  tenant('/admin/aplt/reports', 'documents'),
  tenant('/admin/aplt/document-chain', 'documents'),
  tenant('/store/aplt/quotations', 'documents'),
  tenant('/store/aplt/invoices', 'documents'),
  tenant('/store/aplt/quotes', 'documents'),
  tenant('/store/aplt/returns', 'documents'),

  tenant('/store/aplt/products', 'catalog'),
  tenant('/store/aplt/categories', 'catalog'),
  tenant('/admin/connectors', 'catalog'),
  tenant('/admin/tenant-update', 'catalog'),
  tenant('/admin/agent', 'catalog'),
  tenant('/admin/aplt/ai-assist', 'catalog'),
  tenant('/admin/aplt/ai-generate-lines', 'catalog'),
  tenant('/admin/queues', 'catalog'),

  tenant('/store/access-check', 'gatekeeper'),
  tenant('/store/access-request', 'gatekeeper'),
  tenant('/admin/aplt/access-requests', 'gatekeeper'),

  tenant('/admin/dev-projects', 'devprojects'),
  tenant('/admin/password-sync', 'password-sync'),

  tenant('/admin/features', 'admin'),
  tenant('/api/store/features', 'admin'),
  tenant('/app', 'admin'),
  tenant('/', 'admin'),

  ...perServiceHealth,
];
