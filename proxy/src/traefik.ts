import type { ServiceName } from '@aplt/config';
import { stringify } from 'yaml';
import { hostFor } from './hosts';
import { authResponseHeaders, proxyBodyLimits, type Route, routeTable } from './route-table';
import type { Upstreams } from './upstreams';

export interface TraefikOptions {
  domain: string;
  /** Base URL of each replica of each service as Traefik reaches it (compose container names). */
  upstreams: Upstreams;
  /** Where forward auth asks (one URL; Traefik takes no list). Default: the first access replica. */
  forwardAuthUrl?: string;
  routes?: readonly Route[];
}

function hostRule(route: Route, domain: string): string {
  const escaped = domain.replace(/\./g, '\\.');
  if (route.host === 'tenant') return `HostRegexp(\`^[a-z0-9-]+\\.${escaped}$\`)`;
  if (route.host === 'shop') return `HostRegexp(\`^shop\\.[a-z0-9-]+\\.${escaped}$\`)`;
  if (route.host === 'preview') return `HostRegexp(\`^[a-z0-9-]+\\.preview\\.[a-z0-9-]+\\.${escaped}$\`)`;
  return `Host(\`${hostFor(route.host, domain)}\`)`;
}

function pathRule(route: Route): string {
  const { prefix } = route;
  if (route.exact) return `Path(\`${prefix}\`)`;
  // Whole path segments, like the Caddyfile's `path /p /p/*`: /p matches, /px does not.
  return prefix === '/' ? 'PathPrefix(`/`)' : `(Path(\`${prefix}\`) || PathPrefix(\`${prefix}/\`))`;
}

function routerName(route: Route): string {
  // `/` -> `-`, `-` -> `_`: distinct prefixes keep distinct names (`/-/auth` vs `/auth`).
  const path = route.prefix.replace(/[^a-z0-9]/gi, (c) => (c === '/' ? '-' : c === '-' ? '_' : ''));
  return `${route.host}${path === '-' ? '-root' : path}`;
}

/** Traefik v3 file-provider configuration (docker-compose); same routes as the Caddyfile. */
export function renderTraefikDynamic(o: TraefikOptions): string {
  const routes = o.routes ?? routeTable;
  const routers: Record<string, unknown> = {};
  const middlewares: Record<string, unknown> = {
    'forward-auth': {
      forwardAuth: {
        address: `${o.forwardAuthUrl ?? o.upstreams.access[0]}/api/validate`,
        // X-Forwarded-For from clients is not believed; Traefik sends the real peer.
        trustForwardHeader: false,
        authResponseHeaders: [...authResponseHeaders],
        maxResponseBodySize: 65536,
      },
    },
    // Like the Caddyfile's lb_try_duration: a request whose replica could not be reached goes to
    // another one (Traefik stops retrying as soon as an upstream answers, whatever the status).
    retry: { retry: { attempts: 3, initialInterval: '100ms' } },
    // `/internal` goes nowhere: no client address is ever allowed (403 from Traefik itself).
    deny: { ipAllowList: { sourceRange: ['255.255.255.255/32'] } },
  };
  // Request bodies above the service's own limit stop at the proxy (Caddy: request_body max_size).
  for (const service of Object.keys(proxyBodyLimits) as ServiceName[]) {
    middlewares[`body-${service}`] = { buffering: { maxRequestBodyBytes: proxyBodyLimits[service] } };
  }
  for (const route of routes) {
    const name = routerName(route);
    const chain: string[] = [];
    if (route.service === 'deny') chain.push('deny');
    if (route.forwardAuth) chain.push('forward-auth');
    if (route.stripPrefix) {
      middlewares[`strip-${name}`] = { stripPrefix: { prefixes: [route.stripPrefix] } };
      chain.push(`strip-${name}`);
    }
    if (route.service !== 'deny') {
      if (o.upstreams[route.service].length > 1) chain.push('retry');
      chain.push(`body-${route.service}`);
    }
    routers[name] = {
      entryPoints: ['web'],
      rule: `${hostRule(route, o.domain)} && ${pathRule(route)}`,
      // A denied route still names a service (Traefik requires one); the middleware answers first.
      service: route.service === 'deny' ? 'admin' : route.service,
      // Longest prefix first; fixed hosts before the tenant wildcard.
      priority: (route.host === 'tenant' ? 1000 : 2000) + route.prefix.length,
      ...(chain.length ? { middlewares: chain } : {}),
    };
  }
  const services: Record<string, unknown> = {};
  for (const service of [...new Set(routes.map((r) => r.service))].filter((s) => s !== 'deny').sort()) {
    // Same health checks as the Caddyfile, with several replicas: a replica whose /readyz is not
    // 200 (draining, or a dependency down) gets no new requests.
    const servers = o.upstreams[service];
    services[service] = {
      loadBalancer: {
        servers: servers.map((url) => ({ url })),
        passHostHeader: true,
        ...(servers.length > 1 ? { healthCheck: { path: '/readyz', interval: '2s', timeout: '3s' } } : {}),
      },
    };
  }
  return `# Generated from proxy/src/route-table.ts by \`pnpm proxy:generate\`; do not edit.\n${stringify(
    {
      http: { routers, middlewares, services },
    },
    { lineWidth: 0 },
  )}`;
}
