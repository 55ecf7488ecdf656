import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceNames } from '@aplt/config';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  composeServiceUrl,
  composeUpstreams,
  localUpstreams,
  renderCaddyfile,
  renderTraefikDynamic,
  routeTable,
} from '../src';
import { generatedFiles } from '../src/cli';

/** What a proxy configuration says about one route, read back from the generated artifact. */
type Said = {
  host: string;
  prefix: string;
  exact: boolean;
  service: string;
  auth: boolean;
  strip: string | null;
  maxBody: number | null;
  /** Replicas the route balances over. */
  replicas: number;
};
const key = (s: Said) =>
  `${s.host} ${s.prefix}${s.exact ? ' (exact)' : ''} -> ${s.service} auth=${s.auth} strip=${s.strip} body<=${s.maxBody} replicas=${s.replicas}`;

// Two replicas of each service on the local side, as FLEET_REPLICAS=2 runs them.
const localPorts = Object.fromEntries(
  Object.entries(localUpstreams()).map(([s, [dial]]) => {
    const port = Number(dial!.split(':')[1]);
    return [s, [port, port + 100]];
  }),
);
const local = localUpstreams(localPorts);

/** The parts of a handler in Caddy's adapted JSON that the comparison reads. */
interface CaddyHandler {
  handler: string;
  upstreams: Array<{ dial: string }>;
  rewrite?: { uri?: string };
  status_code?: number;
  strip_path_prefix?: string;
  max_size?: number;
  health_checks?: { passive?: { max_fails?: number } };
  load_balancing?: { try_duration?: number; retry_match?: unknown };
}

/** The parts of a Traefik router and middleware that the comparison reads. */
interface TraefikRouter {
  rule: string;
  service: string;
  middlewares?: string[];
  priority?: number;
}
interface TraefikMiddleware {
  ipAllowList?: { sourceRange?: string[] };
  stripPrefix?: { prefixes?: string[] };
  buffering?: { maxRequestBodyBytes?: number };
}

/** Reads Caddy's own JSON (via `caddy adapt`), not our generator's input. */
function readCaddy(caddyfile: string): Said[][] {
  const dir = mkdtempSync(join(tmpdir(), 'parity-'));
  writeFileSync(join(dir, 'Caddyfile'), caddyfile);
  const json = JSON.parse(
    execFileSync('caddy', ['adapt', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    }).toString(),
  );
  const byDial = new Map(Object.entries(local).flatMap(([s, dials]) => dials.map((d) => [d, s] as const)));
  const serviceOf = (upstreams: Array<{ dial: string }>) => {
    const services = new Set(upstreams.map((u) => byDial.get(u.dial) ?? u.dial));
    return services.size === 1 ? [...services][0]! : [...services].join('+');
  };
  const sites: Said[][] = [];
  for (const route of json.apps.http.servers.srv0.routes) {
    const hostPattern: string | undefined = route.match?.[0]?.host?.[0];
    if (!hostPattern) continue;
    const host = hostPattern.startsWith('*.preview.')
      ? 'preview'
      : hostPattern.startsWith('*.')
        ? 'tenant'
        : (hostPattern.split('.')[0] ?? hostPattern);
    const said: Said[] = [];
    const blocks: Array<{ match?: Array<{ path?: string[] }>; handle: unknown }> = route.handle[0].routes;
    for (const block of blocks) {
      const paths: string[] = block.match?.[0]?.path ?? ['/'];
      const handlers: CaddyHandler[] = [];
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) return node.forEach(walk);
        if (node && typeof node === 'object') {
          if (typeof (node as { handler?: unknown }).handler === 'string')
            handlers.push(node as CaddyHandler);
          Object.values(node).forEach(walk);
        }
      };
      walk(block.handle);
      const proxies = handlers.filter((h) => h.handler === 'reverse_proxy');
      const auth = proxies.find((p) => p.rewrite?.uri === '/api/validate');
      // A replicated service has two: safe methods with retries first, then the rest without.
      const [main, ...others] = proxies.filter((p) => p !== auth && !p.rewrite);
      const denied = handlers.find((h) => h.handler === 'static_response');
      const strip = handlers.find((h) => h.handler === 'rewrite' && h.strip_path_prefix);
      said.push({
        host,
        prefix: paths[0] ?? '/',
        exact: paths.length === 1 && paths[0] !== '/',
        service: denied ? `deny ${denied.status_code}` : serviceOf(main!.upstreams),
        auth: auth !== undefined && serviceOf(auth.upstreams) === 'access',
        strip: strip?.strip_path_prefix ?? null,
        maxBody: handlers.find((h) => h.handler === 'request_body')?.max_size ?? null,
        replicas: denied ? 0 : main!.upstreams.length,
      });
      // Forward auth balances over the access replicas with the same checks.
      if (auth) {
        expect(auth.upstreams).toHaveLength(local.access.length);
        expect(auth.health_checks?.passive?.max_fails).toBe(1);
        expect(auth.load_balancing?.try_duration).toBeGreaterThan(0);
      }
      // Safe methods are retried on another replica; any other goes to one replica once (Caddy
      // 2.6 would retry it with a closed body), both marking a replica that fails.
      if (!denied && main && main.upstreams.length > 1) {
        expect(main.load_balancing?.try_duration, paths[0]).toBeGreaterThan(0);
        expect(main.load_balancing?.retry_match).toEqual([{ method: ['GET', 'HEAD', 'OPTIONS'] }]);
        expect(main.health_checks?.passive?.max_fails).toBe(1);
        expect(JSON.stringify(block.handle)).toContain('"match":[{"method":["GET","HEAD","OPTIONS"]}]');
        expect(others, paths[0]).toHaveLength(1);
        expect(others[0]!.upstreams).toEqual(main.upstreams);
        expect(others[0]!.load_balancing?.try_duration ?? 0, paths[0]).toBe(0);
        expect(others[0]!.health_checks?.passive?.max_fails).toBe(1);
      }
    }
    sites.push(said);
  }
  return sites;
}

function readTraefik(yamlText: string): Said[] {
  const doc = parse(yamlText);
  const serviceOf = (servers: Array<{ url: string }>) => {
    const services = new Set(
      servers.map((s) => Object.entries(composeUpstreams()).find(([, u]) => u.includes(s.url))?.[0] ?? s.url),
    );
    return services.size === 1 ? [...services][0]! : [...services].join('+');
  };
  // Forward auth takes one URL: the compose service name, which Docker's DNS resolves to every replica.
  expect(doc.http.middlewares['forward-auth'].forwardAuth.address).toBe(
    `${composeServiceUrl('access')}/api/validate`,
  );
  return Object.values<TraefikRouter>(doc.http.routers).map((r) => {
    const host = /HostRegexp\(`\^shop/.test(r.rule)
      ? 'shop'
      : /HostRegexp\(`[^`]*\\\.preview\\\./.test(r.rule)
        ? 'preview'
        : /HostRegexp/.test(r.rule)
          ? 'tenant'
          : (/Host\(`([a-z]+)\./.exec(r.rule)?.[1] ?? '?');
    const prefix = /Path\(`([^`]+)`\)/.exec(r.rule)?.[1] ?? (/PathPrefix\(`\/`\)/.test(r.rule) ? '/' : '?');
    const mw: string[] = r.middlewares ?? [];
    const lb = doc.http.services[r.service].loadBalancer;
    const middleware = (pick: (m: TraefikMiddleware | undefined) => unknown) =>
      mw.map((m) => pick(doc.http.middlewares[m])).find((v) => v !== undefined);
    // Traefik's ipAllowList refuses with 403, like the Caddyfile's respond.
    const denied = middleware((m) => m?.ipAllowList?.sourceRange?.[0]) === '255.255.255.255/32';
    return {
      host,
      prefix,
      exact: !/PathPrefix/.test(r.rule),
      service: denied ? 'deny 403' : serviceOf(lb.servers),
      auth: mw.includes('forward-auth'),
      strip: (middleware((m) => m?.stripPrefix?.prefixes?.[0]) as string | undefined) ?? null,
      maxBody: (middleware((m) => m?.buffering?.maxRequestBodyBytes) as number | undefined) ?? null,
      replicas: denied ? 0 : lb.servers.length,
      health: denied ? null : (lb.healthCheck?.path ?? null),
      retried: mw.some((m) => doc.http.middlewares[m]?.retry?.attempts > 0),
      priority: r.priority as number,
    } as Said & { priority: number; retried: boolean; health: string | null };
  });
}

describe('proxy configurations generated from the one route table', () => {
  const caddySites = readCaddy(renderCaddyfile({ port: 8080, domain: 'localhost', upstreams: local }));
  const traefik = readTraefik(
    renderTraefikDynamic({
      domain: 'localhost',
      upstreams: composeUpstreams(2),
      forwardAuthUrl: composeServiceUrl('access'),
    }),
  ) as Array<Said & { priority: number; retried: boolean; health: string | null }>;

  it('say the same thing in Caddy and Traefik: host, path, service, forward auth, prefix stripping, body limit', () => {
    const caddy = caddySites.flat().map(key).sort();
    expect(caddy).toEqual(traefik.map(key).sort());
    expect(caddy).toHaveLength(routeTable.length);
  });

  it('balance every routed request over both replicas with retries (Traefik also checks /readyz)', () => {
    for (const s of caddySites.flat().filter((r) => !r.service.startsWith('deny')))
      expect(s.replicas, `${s.host} ${s.prefix}`).toBe(2);
    for (const r of traefik.filter((t) => !t.service.startsWith('deny'))) {
      expect(r.retried).toBe(true);
      expect(r.health).toBe('/readyz');
    }
  });

  it('try the longest prefix first in both', () => {
    for (const site of caddySites) {
      const host = site[0]!.host;
      const traefikOrder = traefik
        .filter((r) => r.host === host)
        .sort((a, b) => b.priority - a.priority || a.prefix.localeCompare(b.prefix))
        .map((r) => r.prefix);
      expect(site.map((s) => s.prefix)).toEqual(traefikOrder);
    }
  });

  it('protect every tenant route with forward auth, and never the access host itself', () => {
    const all = caddySites.flat();
    expect(all.filter((s) => s.host === 'tenant' && s.service !== 'deny 403').every((s) => s.auth)).toBe(
      true,
    );
    // A dev project's preview is a tenant's unreleased work: behind forward auth like its backend.
    expect(all.find((s) => s.host === 'preview' && s.prefix === '/')).toMatchObject({
      auth: true,
      service: 'devprojects',
    });
    expect(all.find((s) => s.host === 'access' && s.prefix === '/')).toMatchObject({
      auth: false,
      service: 'access',
    });
    expect(new Set(all.map((s) => s.service))).toEqual(new Set<string>([...serviceNames, 'deny 403']));
  });

  it('reach a service through /-/<service>/ only for its health, and /internal never', () => {
    const all = caddySites.flat();
    const health = all.filter((s) => s.prefix.startsWith('/-/'));
    expect(health.length).toBeGreaterThan(0);
    for (const s of health) {
      expect(s.exact, s.prefix).toBe(true);
      expect(s.prefix).toMatch(/^\/-\/[a-z-]+\/(healthz|readyz)$/);
      expect(s.strip).toBe(s.prefix.slice(0, s.prefix.lastIndexOf('/')));
    }
    const internal = all.filter((s) => s.prefix === '/internal');
    expect(internal.map((s) => s.host).sort()).toEqual([
      'access',
      'modal',
      'portal',
      'preview',
      'shop',
      'tenant',
    ]);
    for (const s of internal) expect(s.service).toBe('deny 403');
  });

  it('let bodies through up to above each service limit, so the service answers 413 itself', () => {
    for (const s of caddySites.flat().filter((r) => !r.service.startsWith('deny')))
      expect(s.maxBody, `${s.host} ${s.prefix}`).toBeGreaterThan(1_048_576);
  });

  it('are committed as generated (pnpm proxy:generate)', () => {
    for (const [file, content] of Object.entries(generatedFiles()))
      expect(readFileSync(file, 'utf8')).toBe(content);
  });

  it('validate with caddy itself', () => {
    const out = execFileSync(
      'caddy',
      [
        'validate',
        '--config',
        new URL('../generated/Caddyfile', import.meta.url).pathname,
        '--adapter',
        'caddyfile',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    expect(out.toString()).toContain('Valid configuration');
  });
});
