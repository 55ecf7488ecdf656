import { existsSync, readFileSync } from 'node:fs';
import { ServicePorts, serviceNames } from '@aplt/config';
import { parsePgPlacement } from '@aplt/db';
import { COMPOSE_REPLICAS } from '@aplt/proxy';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { demoTenants, secondServerTenants } from '../fleet/seeds/demo-tenants';
import { SERVICE_GLIBC_TUNABLES } from '../fleet/malloc-env';

const root = new URL('../../', import.meta.url);
/** A value as compose reads it when the variable is unset: `${X:-default}` -> `default`. */
const unset = (value: string) => value.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');
const compose = parse(readFileSync(new URL('docker-compose.yml', root), 'utf8'), { merge: true });

describe('docker-compose.yml', () => {
  it('runs every service of the fleet from the one image, on its port, after the prepare job', () => {
    // The storefront (apps/storefront, Next.js) runs its server.mjs: its own test below.
    for (const name of serviceNames.filter((s) => s !== 'storefront')) {
      const svc = compose.services[name];
      expect(svc, name).toBeDefined();
      expect(svc.build.args.SERVICE).toBe(name);
      expect(svc.environment.PORT).toBe(String(ServicePorts[name]));
      expect(svc.depends_on.prepare.condition).toBe('service_completed_successfully');
      expect(existsSync(new URL(`services/${name}/src/server.ts`, root))).toBe(true);
    }
  });

  it('runs the storefront from the same image: server.mjs on its build, on its port, on a fixed address', () => {
    const svc = compose.services.storefront;
    expect(svc).toBeDefined();
    expect(svc.build.args.SERVICE).toBe('storefront');
    expect(svc.depends_on.prepare.condition).toBe('service_completed_successfully');
    expect(svc.working_dir).toBe('/app/apps/storefront');
    expect(existsSync(new URL('apps/storefront/package.json', root))).toBe(true);
    const port = String(ServicePorts.storefront);
    // Next's request handler behind the page cache (apps/storefront/server.mjs), not `next start`.
    expect(svc.command.slice(0, 2)).toEqual(['node', 'server.mjs']);
    expect(existsSync(new URL('apps/storefront/server.mjs', root))).toBe(true);
    expect(svc.command[svc.command.indexOf('--port') + 1]).toBe(port);
    expect(svc.command[svc.command.indexOf('--hostname') + 1]).toBe('0.0.0.0');
    // The image's health check asks PORT.
    expect(svc.environment.PORT).toBe(port);
    // The store API through Traefik (an address: the storefront connects every tenant host there),
    // the gatekeeper service directly, the gatekeeper on in the demo.
    const traefikIp = compose.services.traefik.networks.fleet.ipv4_address;
    expect(svc.environment.STORE_API_URL).toBe(`http://${traefikIp}:80`);
    expect(svc.environment.GATEKEEPER_URL).toBe(`http://gatekeeper:${ServicePorts.gatekeeper}`);
    expect(unset(svc.environment.PROXY_DOMAIN)).toBe('localhost');
    expect(unset(svc.environment.NEXT_PUBLIC_GATEKEEPER_ENABLED)).toBe('true');
    expect(unset(svc.environment.NEXT_PUBLIC_TENANT_FEATURES)).toBe('');
    // No secret reaches the storefront: it needs none.
    for (const secret of ['JWT_SECRET', 'SERVICE_TOKEN', 'ACCESS_ASSERTION_PRIVATE_KEY', 'PG_PASS'])
      expect(svc.environment[secret], secret).toBeUndefined();
    // Its fixed address passes forward auth for the store API (as loopback does locally), and the
    // gatekeeper believes the visitor address it relays; nothing else trusts it.
    const storefrontIp = svc.networks.fleet.ipv4_address;
    expect(storefrontIp).toMatch(/^172\.28\.0\.\d+$/);
    expect(storefrontIp).not.toBe(traefikIp);
    expect(compose.services.access.environment.ACCESS_STATIC_WHITELIST.split(',')).toContain(
      `${storefrontIp}/32`,
    );
    expect(compose.services.gatekeeper.environment.TRUSTED_PROXIES.split(',')).toEqual([
      `${traefikIp}/32`,
      `${storefrontIp}/32`,
    ]);
    expect(compose.services.documents.environment.TRUSTED_PROXIES).toBe(`${traefikIp}/32`);
    expect(unset(compose.services.access.environment.ACCESS_SHOP_POLICY)).toBe('public');
  });

  it("routes every tenant's shop host to the storefront service behind forward auth in Traefik", () => {
    const dynamic = parse(readFileSync(new URL('proxy/generated/traefik/dynamic.yml', root), 'utf8'));
    const routers = Object.values(dynamic.http.routers) as {
      rule: string;
      service: string;
      middlewares?: string[];
    }[];
    const shop = routers.filter((r) => r.rule.startsWith('HostRegexp(`^shop') && r.service === 'storefront');
    expect(shop).toHaveLength(1);
    expect(shop[0]!.middlewares).toContain('forward-auth');
    // By container name like every service (proxy/src/upstreams.ts); compose runs one replica.
    expect(dynamic.http.services.storefront.loadBalancer.servers[0]).toEqual({
      url: `http://aplt-storefront-1:${ServicePorts.storefront}`,
    });
  });

  it('wires the services with the same variables as a local run', () => {
    const env = compose.services.documents.environment;
    for (const v of [
      'PG_HOST',
      'PG_PORT',
      'PG_USER',
      'PG_PASS',
      'CONTROL_DB',
      'REDIS_URL',
      'JWT_SECRET',
      'LICENSE_API_URL',
      'TRUSTED_PROXIES',
    ]) {
      expect(env[v], v).toBeDefined();
    }
    expect(env.LICENSE_API_URL).toBe(`http://access:${ServicePorts.access}`);
  });

  it('trusts forwarded headers only from Traefik, whose address is fixed', () => {
    const traefikIp = compose.services.traefik.networks.fleet.ipv4_address;
    expect(compose.services.documents.environment.TRUSTED_PROXIES).toBe(`${traefikIp}/32`);
    expect(compose.networks.fleet.ipam.config[0].subnet).toBe('172.28.0.0/16');
  });

  it('mounts the generated Traefik routes and a static config that exist', () => {
    const mounts: string[] = compose.services.traefik.volumes;
    for (const m of mounts.map(unset).filter((m) => m.startsWith('./'))) {
      const [source] = m.split(':');
      expect(existsSync(new URL(source!.replace(/^\.\//, ''), root)), source).toBe(true);
    }
    expect(mounts.some((m) => m.startsWith('./proxy/generated/traefik/dynamic.yml:'))).toBe(true);
    const staticConfig = parse(readFileSync(new URL('deploy/traefik/traefik.yml', root), 'utf8'));
    expect(staticConfig.providers.file.filename).toBe('/etc/traefik/dynamic.yml');
    expect(staticConfig.entryPoints.web.address).toBe(':80');
  });

  it('builds one multi-stage image that never downloads a browser', () => {
    const dockerfile = readFileSync(new URL('Dockerfile', root), 'utf8');
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toContain('PUPPETEER_SKIP_DOWNLOAD=1');
    // The admin service serves the panel's build under /app: the image must contain it.
    expect(dockerfile).toContain('pnpm --filter @aplt/admin-web build');
    // The storefront's compose service runs server.mjs on the build made in the image.
    expect(dockerfile).toContain('pnpm --filter @aplt/storefront build');
    // Services run their bundles (issue #17), built in the image by turbo.
    expect(dockerfile).toContain('pnpm build');
    expect(dockerfile).toContain('services/${SERVICE}/dist/server.mjs');
    expect(dockerfile).not.toMatch(/--import tsx/);
    // The services' malloc settings are the fleet runner's, not a copy that drifted.
    expect(dockerfile).toContain(`GLIBC_TUNABLES=${SERVICE_GLIBC_TUNABLES}`);
  });

  it('runs every process from a bundle that `pnpm build` makes, none through tsx', () => {
    const commands = Object.values(compose.services as Record<string, { command?: string[] }>)
      .map((s) => s.command)
      .filter((c): c is string[] => Array.isArray(c) && c[0] === 'node');
    expect(commands.length).toBeGreaterThanOrEqual(2);
    for (const command of commands) {
      expect(command).not.toContain('tsx');
      const bundle = command.find((a) => a.endsWith('.mjs'));
      expect(bundle, command.join(' ')).toBeDefined();
      if (bundle === 'server.mjs') continue; // the storefront's own server, not a bundle
      // deploy/dist/x.mjs comes from deploy/fleet/x.ts, services/s/dist/x.mjs from services/s/src/x.ts.
      const source = bundle!.startsWith('deploy/dist/')
        ? bundle!.replace('deploy/dist/', 'deploy/fleet/').replace(/\.mjs$/, '.ts')
        : bundle!.replace('/dist/', '/src/').replace(/\.mjs$/, '.ts');
      expect(existsSync(new URL(source, root)), source).toBe(true);
      const pkg = bundle!.split('/dist/')[0]!;
      const scripts = JSON.parse(readFileSync(new URL(`${pkg}/package.json`, root), 'utf8')).scripts;
      expect(scripts.build, `${pkg} has a build script`).toMatch(/bundle\.ts/);
    }
  });

  // Issue #18: replicas, restart policies, a second PostgreSQL server, a durable Redis.
  const longRunning = Object.keys(compose.services).filter((n) => n !== 'prepare');
  const replicated = [
    'access',
    'auth',
    'password-sync',
    'documents',
    'catalog',
    'gatekeeper',
    'portal',
    'logo-modal',
    'admin',
  ];

  it('runs the stateless services as replicas, as many as the generated Traefik file names', () => {
    for (const name of [...replicated, 'catalog-worker'])
      expect(compose.services[name].deploy?.replicas, name).toBe(COMPOSE_REPLICAS);
    // One container each where state or a fixed address pins them.
    for (const name of ['devprojects', 'storefront', 'traefik', 'postgres', 'postgres-2', 'mariadb', 'redis'])
      expect(compose.services[name].deploy?.replicas ?? 1, name).toBe(1);
    const dynamic = parse(readFileSync(new URL('proxy/generated/traefik/dynamic.yml', root), 'utf8'));
    for (const name of replicated) {
      const servers = dynamic.http.services[name].loadBalancer.servers.map((x: { url: string }) => x.url);
      expect(servers, name).toEqual(
        Array.from(
          { length: COMPOSE_REPLICAS },
          (_, i) => `http://aplt-${name}-${i + 1}:${ServicePorts[name as keyof typeof ServicePorts]}`,
        ),
      );
    }
    expect(compose.name).toBe('aplt');
    // Replicas share what they write: the logo files in one volume.
    expect(compose.services['logo-modal'].environment.FILE_STORE_DIR).toBe('/data/files');
    expect(compose.services['logo-modal'].volumes).toEqual(['modalfiles:/data/files']);
  });

  it('runs the catalog worker beside the HTTP replicas, without an HTTP health check', () => {
    const worker = compose.services['catalog-worker'];
    expect(worker.build.args.SERVICE).toBe('catalog');
    expect(worker.command).toEqual(['node', '--enable-source-maps', 'services/catalog/dist/worker.mjs']);
    expect(existsSync(new URL('services/catalog/src/worker.ts', root))).toBe(true);
    expect(worker.healthcheck.disable).toBe(true);
    expect(worker.environment.REDIS_URL).toBe('redis://redis:6379');
  });

  it('restarts every long-running container, and the one-shot prepare job only on failure', () => {
    for (const name of longRunning)
      expect(compose.services[name].restart, name).toMatch(/^(unless-stopped|always)$/);
    expect(compose.services.prepare.restart).toBe('on-failure');
  });

  it('has a second PostgreSQL server with its own volume, and the demo seed places tenants on both', () => {
    const [a, b] = [compose.services.postgres, compose.services['postgres-2']];
    expect(b.image).toBe(a.image);
    expect(b.environment.POSTGRES_PASSWORD).toBe(a.environment.POSTGRES_PASSWORD);
    expect(b.volumes).toEqual(['pgdata2:/var/lib/postgresql/data']);
    expect(a.volumes).toEqual(['pgdata:/var/lib/postgresql/data']);
    expect(b.healthcheck.test).toEqual(['CMD', 'pg_isready', '-U', 'postgres']);
    expect(compose.volumes).toHaveProperty('pgdata2');
    const prepare = compose.services.prepare;
    expect(prepare.depends_on['postgres-2'].condition).toBe('service_healthy');
    // The registry row names the server (parsePgPlacement reads it); the default list of tenants.
    expect(parsePgPlacement(unset(prepare.environment.FLEET_PG_SECOND))).toEqual({
      host: 'postgres-2',
      port: 5432,
    });
    expect(unset(prepare.environment.FLEET_PG_SECOND_TENANTS)).toBe('');
    expect(secondServerTenants.length).toBeGreaterThan(0);
    expect(demoTenants.filter((t) => !secondServerTenants.includes(t.id)).length).toBeGreaterThan(0);
  });

  it('runs Redis with the append-only file every second and noeviction, on a volume', () => {
    const redis = compose.services.redis;
    const flag = (name: string) => redis.command[redis.command.indexOf(name) + 1];
    expect(redis.command[0]).toBe('redis-server');
    expect(flag('--appendonly')).toBe('yes');
    expect(flag('--appendfsync')).toBe('everysec');
    expect(flag('--maxmemory-policy')).toBe('noeviction');
    expect(redis.volumes).toEqual(['redisdata:/data']);
  });

  it('offers a TLS static configuration whose `web` entry point (the generated routes use it) is HTTPS', () => {
    const acme = parse(readFileSync(new URL('deploy/traefik/traefik.acme.yml', root), 'utf8'));
    expect(acme.entryPoints.web.address).toBe(':443');
    expect(acme.entryPoints.web.http.tls.certResolver).toBe('letsencrypt');
    expect(acme.entryPoints.http.http.redirections.entryPoint.to).toBe('web');
    expect(acme.certificatesResolvers.letsencrypt.acme.storage).toMatch(/^\/etc\/traefik\/acme\//);
    expect(compose.services.traefik.volumes).toContain('acme:/etc/traefik/acme');
    expect(acme.providers.file.filename).toBe('/etc/traefik/dynamic.yml');
  });
});
