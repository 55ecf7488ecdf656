import { existsSync, readFileSync } from 'node:fs';
import { ServicePorts, serviceNames } from '@aplt/config';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = new URL('../../', import.meta.url);
const compose = parse(readFileSync(new URL('docker-compose.yml', root), 'utf8'), { merge: true });

describe('docker-compose.yml', () => {
  it('runs every service of the fleet from the one image, on its port, after the prepare job', () => {
    // The storefront (apps/storefront, Next.js) has no compose service yet: local fleet only.
    for (const name of serviceNames.filter((s) => s !== 'storefront')) {
      const svc = compose.services[name];
      expect(svc, name).toBeDefined();
      expect(svc.build.args.SERVICE).toBe(name);
      expect(svc.environment.PORT).toBe(String(ServicePorts[name]));
      expect(svc.depends_on.prepare.condition).toBe('service_completed_successfully');
      expect(existsSync(new URL(`services/${name}/src/server.ts`, root))).toBe(true);
    }
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
    expect(dockerfile).toContain('services/${SERVICE}/src/server.ts');
  });
});
