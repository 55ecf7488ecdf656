import type { ServiceName } from '@aplt/config';

/**
 * `tenant`: any tenant backend host (`<tenant>.<domain>`); `shop`: any tenant's storefront host
 * (`shop.<tenant>.<domain>`); `preview`: a dev project's built preview (`<code>.preview.<tenant>.<domain>`);
 * the others are fixed hosts.
 */
export type HostKind = 'tenant' | 'shop' | 'preview' | 'access' | 'portal' | 'modal';

export interface Route {
  host: HostKind;
  /**
   * Whole-segment path prefix: `/admin/aplt/orders` matches `/admin/aplt/orders` and
   * `/admin/aplt/orders/...`; with `exact`, only the path itself.
   */
  prefix: string;
  exact?: boolean;
  /** Where the request goes; `deny` routes go nowhere (the proxy answers 403 itself). */
  service: ServiceName | 'deny';
  forwardAuth: boolean;
  /** Remove this leading part of the path before forwarding (the health paths `/-/<service>/...`). */
  stripPrefix?: string;
}

/**
 * Identity headers the access service returns on allow; the proxy copies them upstream, replacing
 * client values. `X-Access-Assertion` is the signed one every tenant backend verifies.
 */
export const authResponseHeaders = [
  'X-Auth-User',
  'X-Auth-Roles',
  'X-Auth-Via',
  'X-Access-Assertion',
] as const;

/**
 * Largest request body the proxy passes to each service: above the service's own limit, so a
 * body the service refuses gets the service's 413 with the fleet's error body, and a body far
 * beyond any limit never reaches a service.
 */
export const proxyBodyLimits: Record<ServiceName, number> = {
  access: 2 * 1024 * 1024,
  // Avatars up to 2 MB (PUT /store/customers/me/avatar) plus multipart framing.
  auth: 3 * 1024 * 1024,
  'password-sync': 2 * 1024 * 1024,
  // Returns carry up to 3 photos of 5 MB each plus the JSON field and multipart framing.
  documents: 16 * 1024 * 1024,
  catalog: 2 * 1024 * 1024,
  gatekeeper: 2 * 1024 * 1024,
  portal: 2 * 1024 * 1024,
  devprojects: 2 * 1024 * 1024,
  // Logo uploads up to 5 MB (UPLOAD_MAX_BYTES) plus multipart framing.
  'logo-modal': 8 * 1024 * 1024,
  admin: 2 * 1024 * 1024,
  // Page requests and the storefront's own form posts, the largest a return with 3 photos of 5 MB
  // each (the account's server action passes them on to the documents service).
  storefront: 16 * 1024 * 1024,
};

const tenant = (prefix: string, service: ServiceName): Route => ({
  host: 'tenant',
  prefix,
  service,
  forwardAuth: true,
});

// Each service's health, and nothing else of it, at `/-/<service>/healthz` and `/readyz`.
const perServiceHealth: Route[] = (
  ['auth', 'password-sync', 'documents', 'catalog', 'gatekeeper', 'devprojects', 'admin'] as const
).flatMap((service) =>
  (['healthz', 'readyz'] as const).map((check): Route => ({
    host: 'tenant',
    prefix: `/-/${service}/${check}`,
    exact: true,
    service,
    forwardAuth: true,
    stripPrefix: `/-/${service}`,
  })),
);

// Service-to-service routes live under /internal and are never reachable through the proxy,
// on any host, in any spelling the proxy matches (both proxies match decoded paths).
const internalDenied: Route[] = (['tenant', 'shop', 'preview', 'access', 'portal', 'modal'] as const).map(
  (host) => ({
    host,
    prefix: '/internal',
    service: 'deny',
    forwardAuth: false,
  }),
);

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
  // The storefront (issue #15) on each tenant's shop host, behind forward auth like a backend (spec
  // 2); it reaches the store API itself, server side, on the tenant host.
  { host: 'shop', prefix: '/', service: 'storefront', forwardAuth: true },
  // The logo configurator under the shop's own origin: the modal posts its messages only to an
  // allow-listed origin or its own (spec 3), and every tenant's shop host cannot be among five
  // fixed origins. Served here, the modal and the shop share an origin; the modal still sees the
  // visitor's address (its rate limits) and builds its file links on the shop host.
  ...(['/modal', '/api/config-check', '/api/configurator', '/api/transactions'] as const).map(
    (prefix): Route => ({ host: 'shop', prefix, service: 'logo-modal', forwardAuth: true }),
  ),

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
  tenant('/admin/aplt/customers', 'documents'),
  tenant('/admin/aplt/parameters', 'documents'),
  tenant('/admin/aplt/content', 'documents'),
  tenant('/admin/aplt/subscriptions', 'documents'),
  // Staff's view of the returns customers file in the shop (issue #15).
  tenant('/admin/aplt/returns', 'documents'),
  tenant('/store/aplt/quotations', 'documents'),
  tenant('/store/aplt/invoices', 'documents'),
  tenant('/store/aplt/orders', 'documents'),
  tenant('/store/aplt/quotes', 'documents'),
  tenant('/store/aplt/returns', 'documents'),
  // Storefront carts and their quotation requests (issue #15).
  tenant('/store/carts', 'documents'),

  tenant('/store/aplt/products', 'catalog'),
  tenant('/store/aplt/categories', 'catalog'),
  tenant('/admin/connectors', 'catalog'),
  tenant('/admin/tenant-update', 'catalog'),
  tenant('/admin/agent', 'catalog'),
  tenant('/admin/aplt/ai-assist', 'catalog'),
  tenant('/admin/aplt/ai-generate-lines', 'catalog'),
  tenant('/admin/aplt/suppliers', 'catalog'),
  tenant('/admin/aplt/technique-pricing', 'catalog'),
  tenant('/admin/aplt/products', 'catalog'),
  tenant('/admin/queues', 'catalog'),

  tenant('/store/access-check', 'gatekeeper'),
  tenant('/store/access-request', 'gatekeeper'),
  tenant('/admin/aplt/access-requests', 'gatekeeper'),

  tenant('/admin/dev-projects', 'devprojects'),
  // A dev project's built preview (issue #16): static files the devprojects service serves, behind
  // forward auth like a tenant backend (the host is no registered tenant host, so only platform
  // staff and whitelisted addresses pass).
  { host: 'preview', prefix: '/', service: 'devprojects', forwardAuth: true },
  tenant('/admin/password-sync', 'password-sync'),

  tenant('/admin/features', 'admin'),
  tenant('/api/store/features', 'admin'),
  tenant('/app', 'admin'),
  tenant('/', 'admin'),

  ...perServiceHealth,
  ...internalDenied,
];
