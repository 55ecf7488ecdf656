import { existsSync, readFileSync } from 'node:fs';
import { ServicePorts, serviceNames } from '@aplt/config';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

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
    expect(dynamic.http.services.storefront.loadBalancer.servers).toEqual([
      { url: `http://storefront:${ServicePorts.storefront}` },
    ]);
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
    for (const m of mounts) {
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
    expect(dockerfile).toContain('services/${SERVICE}/src/server.ts');
  });
});
