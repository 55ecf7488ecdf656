import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceNames } from '@aplt/config';
import { dropFleetDatabases, freePort, httpRequest, testServers, uniqueName } from '@aplt/testing';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningFleet, startFleet } from '../fleet/run-fleet';
import { demoAdmin } from '../fleet/seeds/demo-tenants';

/**
 * The start command's real path: migrate, seed, spawn every service as its own process from its
 * compiled bundle, start Caddy, then reach each service through the proxy, on databases private to this test.
 */
describe('the start command brings the whole fleet up behind the proxy', () => {
  const prefix = `${uniqueName('f')}_`;
  let fleet: RunningFleet;
  const output: string[] = [];
  let proxyPort: number;
  let mailDir: string;
  let work: string | undefined;

  beforeAll(async () => {
    const { pg, mysql, redisUrl } = testServers();
    proxyPort = await freePort();
    work = mkdtempSync(join(tmpdir(), 'fleet-'));
    mailDir = join(work, 'mail');
    fleet = await startFleet({
      env: {
        PG_HOST: pg.host,
        PG_PORT: String(pg.port),
        PG_USER: pg.user,
        PG_PASS: pg.password,
        CONTROL_DB: `${prefix}control`,
        PG_DB: `${prefix}access`,
        MYSQL_HOST: mysql.host,
        MYSQL_PORT: String(mysql.port),
        MYSQL_USER: mysql.user,
        MYSQL_PASSWORD: mysql.password,
        PORTAL_DB: `${prefix}portal`,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: prefix,
        PROXY_PORT: String(proxyPort),
        FLEET_PORTS: 'auto',
        FLEET_DB_PREFIX: prefix,
        FLEET_TENANTS: 'master,pim,acme,globex',
        LICENSE_CACHE_DIR: join(work, 'cache'),
        FILE_STORE_DIR: join(work, 'files'),
        DEVPROJECTS_GIT_DIR: join(work, 'repos'),
        FLEET_MAIL_DIR: mailDir,
        FLEET_SECRETS_FILE: join(work, 'secrets.env'),
        // As the start command runs it: every process from its bundle (`pnpm build`, which the
        // README's test command runs first).
        FLEET_RUNTIME: 'compiled',
        LOG_LEVEL: 'warn',
      },
      log: (line) => output.push(line),
      serviceOutput: (name, line) => output.push(`${name}| ${line}`),
    }).catch((err: unknown) => {
      throw new Error(`${(err as Error).message}\n${output.slice(-40).join('\n')}`);
    });
  }, 300_000);

  afterAll(async () => {
    await fleet?.stop();
    await dropFleetDatabases(prefix);
    if (work) await rm(work, { recursive: true, force: true });
  }, 120_000);

  const via = (host: string, path: string, opts: Parameters<typeof httpRequest>[1] = {}) =>
    httpRequest(`http://127.0.0.1:${proxyPort}${path}`, { ...opts, host });

  it('reaches every tenant-backend service on every seeded tenant host', async () => {
    const tenantServices = serviceNames.filter(
      (s) => !['access', 'portal', 'logo-modal', 'storefront'].includes(s),
    );
    for (const tenant of ['acme', 'globex']) {
      for (const service of tenantServices) {
        const res = await via(`${tenant}.localhost`, `/-/${service}/readyz`);
        expect(res.status, `${service} on ${tenant}: ${res.text()}`).toBe(200);
      }
      expect((await via(`${tenant}.localhost`, '/')).json().tenant.id).toBe(tenant);
    }
  });

  it('reaches the access service, the portal and the logo modal on their own hosts', async () => {
    expect((await via('access.localhost', '/readyz')).status).toBe(200);
    expect((await via('portal.localhost', '/readyz')).status).toBe(200);
    expect((await via('modal.localhost', '/readyz')).status).toBe(200);
  });

  it('has seeded an admin who can log in on every tenant', async () => {
    for (const tenant of ['master', 'pim', 'acme', 'globex']) {
      const res = await via(`${tenant}.localhost`, '/auth/user/emailpass', {
        method: 'POST',
        body: { email: demoAdmin.email, password: demoAdmin.password },
      });
      expect(res.status, `${tenant}: ${res.text()}`).toBe(200);
      expect(typeof res.json().token).toBe('string');
    }
  });

  it("delivers the fleet's mail to the local catcher (a password reset link)", async () => {
    const res = await via('acme.localhost', '/auth/user/emailpass/reset-password', {
      method: 'POST',
      body: { identifier: demoAdmin.email },
    });
    expect(res.status).toBe(201);
    let found = '';
    for (let i = 0; i < 100 && !found; i++) {
      for (const f of readdirSync(mailDir).filter((n) => n.endsWith('.eml'))) {
        const mail = await simpleParser(readFileSync(join(mailDir, f)));
        if (mail.text?.includes('/app/reset-password?token=')) found = mail.text;
      }
      if (!found) await new Promise((r) => setTimeout(r, 100));
    }
    expect(found).toMatch(/http:\/\/acme\.localhost:\d+\/app\/reset-password\?token=[\w.-]+&email=/);
  });

  it('stops every process on stop()', async () => {
    await fleet.stop();
    await expect(via('acme.localhost', '/')).rejects.toThrow();
  });
});
