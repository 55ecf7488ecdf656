import { byPrefixLength, hostFor } from './hosts';
import { authResponseHeaders, proxyBodyLimits, type Route, routeTable } from './route-table';
import type { Upstreams } from './upstreams';

export interface CaddyOptions {
  port: number;
  domain: string;
  /** host:port of each replica of each service as the proxy reaches it. */
  upstreams: Upstreams;
  bind?: string;
  routes?: readonly Route[];
}

// Caddy keeps 32 idle connections per upstream by default; under load it would reconnect.
const transport = ['transport http {', '\tkeepalive_idle_conns_per_host 512', '}'];

/**
 * Load balancing over a service's replicas (Caddy 2.6): round robin; a failed connection takes
 * the replica out at once for 2 s (passive), shared by every handler that names it. A GET, HEAD
 * or OPTIONS is tried on another replica for up to 5 s, whether its connection failed or its
 * exchange started and then failed. Every other method goes to one replica, once: Caddy 2.6
 * retries a failed dial of any method, but the transport has closed the request body by then, so
 * the retry fails with "invalid Read on closed Body" (caddyserver/caddy#5454, fixed only in 2.11)
 * and counts as a failure of the healthy replica it was sent to. Under a replica's crash that
 * took out the survivor too, and every request to the service got 503 for 2 s.
 * 5xx answers do not count as failures: a tenant database outage is not the replica's fault. A
 * draining replica serves on for DRAIN_DELAY_MS, then refuses connections, which sends its
 * traffic elsewhere.
 * No active /readyz checks here: Caddy runs one checker per reverse_proxy handler (127 in this
 * file), so two replicas meant 254 readiness requests (database and Redis pings) every interval;
 * on a loaded machine they timed out, Caddy marked every replica down and did not come up in
 * time. Traefik checks once per service and keeps its active checks.
 * Only for a service with several replicas: alone, there is no other to send to, and a passive
 * mark would turn the service's restart by the supervisor into the proxy's 502s.
 */
const passive = ['lb_policy round_robin', 'fail_duration 2s', 'max_fails 1'];
const retrying = [
  'lb_try_duration 5s',
  'lb_try_interval 100ms',
  'lb_retry_match {',
  '\tmethod GET HEAD OPTIONS',
  '}',
];

/** The methods a replica's failure may be retried for (see `passive`); a matcher of every site. */
const SAFE_METHODS = 'safe_methods';

/** The reverse_proxy subdirectives for these upstreams: balancing when there are several. */
const proxying = (upstreams: readonly string[], retry = true) =>
  upstreams.length > 1 ? [...passive, ...(retry ? retrying : []), ...transport] : transport;

const indent = (lines: string[], depth: number) => lines.map((l) => `${'\t'.repeat(depth)}${l}`);

function matcherName(route: Route): string {
  // `/` -> `_`, `-` -> `x`: distinct prefixes keep distinct names (`/-/auth` vs `/auth`).
  return `r${route.prefix.replace(/[^a-z0-9]/gi, (c) => (c === '/' ? '_' : c === '-' ? 'x' : ''))}`;
}

/** The proxy's own answer on a route that goes nowhere (`/internal`). */
export const DENIED_BODY = '{"type":"not_allowed","message":"Not routed"}';

function routeBody(route: Route, o: CaddyOptions): string[] {
  const lines: string[] = [];
  if (route.service === 'deny') {
    return [`header Content-Type application/json`, `respond \`${DENIED_BODY}\` 403`];
  }
  if (route.forwardAuth) {
    // Client-sent identity headers are dropped first, so only the access service can set them.
    for (const h of authResponseHeaders) lines.push(`request_header -${h}`);
    lines.push(
      `forward_auth ${o.upstreams.access.join(' ')} {`,
      '\turi /api/validate',
      `\tcopy_headers ${authResponseHeaders.join(' ')}`,
      ...indent(proxying(o.upstreams.access), 1),
      '}',
    );
  }
  if (route.stripPrefix) lines.push(`uri strip_prefix ${route.stripPrefix}`);
  lines.push(`request_body {`, `\tmax_size ${proxyBodyLimits[route.service]}`, '}');
  const upstreams = o.upstreams[route.service];
  if (upstreams.length > 1)
    lines.push(
      `reverse_proxy @${SAFE_METHODS} ${upstreams.join(' ')} {`,
      ...indent(proxying(upstreams), 1),
      '}',
    );
  lines.push(`reverse_proxy ${upstreams.join(' ')} {`, ...indent(proxying(upstreams, false), 1), '}');
  // `route` keeps the directives in the order written: strip headers, ask access, then proxy.
  return ['route {', ...indent(lines, 1), '}'];
}

/**
 * The proxy's own failures in the fleet's error body. A body over `request_body max_size` surfaces
 * in Caddy 2.6 as a failed upstream request (502): it is a 413, like Traefik's buffering answers.
 */
const errorAnswers = [
  'handle_errors {',
  '\t@too_large expression `{err.status_code} == 413 || {err.message}.contains("request body too large")`',
  '\theader @too_large Content-Type application/json',
  '\trespond @too_large `{"type":"payload_too_large","message":"The request body is too large"}` 413',
  '\theader Content-Type application/json',
  '\trespond `{"type":"unavailable","message":"The service did not answer"}` {err.status_code}',
  '}',
];

function site(address: string, routes: Route[], o: CaddyOptions): string[] {
  const lines: string[] = [`${address} {`];
  if (o.bind) lines.push(`\tbind ${o.bind}`);
  if (routes.some((r) => r.service !== 'deny' && o.upstreams[r.service].length > 1))
    lines.push(`\t@${SAFE_METHODS} method GET HEAD OPTIONS`);
  for (const route of byPrefixLength(routes)) {
    if (route.prefix === '/') {
      lines.push('\thandle {', ...indent(routeBody(route, o), 2), '\t}');
    } else {
      const name = matcherName(route);
      const paths = route.exact ? route.prefix : `${route.prefix} ${route.prefix}/*`;
      lines.push(`\t@${name} path ${paths}`);
      lines.push(`\thandle @${name} {`, ...indent(routeBody(route, o), 2), '\t}');
    }
  }
  lines.push(...indent(errorAnswers, 1), '}');
  return lines;
}

/** The Caddyfile for machines without a container engine; same routes as the Traefik config. */
export function renderCaddyfile(o: CaddyOptions): string {
  const routes = o.routes ?? routeTable;
  const out: string[] = [
    '# Generated from proxy/src/route-table.ts by `pnpm proxy:generate`; do not edit.',
    '{',
    '\tadmin off',
    '\tauto_https off',
    '}',
    '',
  ];
  for (const kind of ['access', 'portal', 'modal'] as const) {
    out.push(
      ...site(
        `http://${hostFor(kind, o.domain)}:${o.port}`,
        routes.filter((r) => r.host === kind),
        o,
      ),
      '',
    );
  }
  // `*` is one label: `shop.*.localhost` is every tenant's shop host, `*.preview.*.localhost` every
  // dev project preview, `*.localhost` every tenant host.
  out.push(
    ...site(
      `http://*.preview.*.${o.domain}:${o.port}`,
      routes.filter((r) => r.host === 'preview'),
      o,
    ),
    '',
  );
  out.push(
    ...site(
      `http://shop.*.${o.domain}:${o.port}`,
      routes.filter((r) => r.host === 'shop'),
      o,
    ),
    '',
  );
  out.push(
    ...site(
      `http://*.${o.domain}:${o.port}`,
      routes.filter((r) => r.host === 'tenant'),
      o,
    ),
    '',
  );
  out.push(
    `http://:${o.port} {`,
    ...(o.bind ? [`\tbind ${o.bind}`] : []),
    '\theader Content-Type application/json',
    `\trespond \`{"type":"not_found","message":"Unknown host"}\` 404`,
    '}',
    '',
  );
  return out.join('\n');
}
