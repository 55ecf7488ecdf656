import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLicenseClientFromEnv, HttpLicenseClient, type LicenseClientOptions } from '@aplt/licensing';
import { createTestFleet, createTestRedis, testSecrets, type TestFleet, type TestRedis } from '@aplt/testing';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/auth/login.service';
import { insertSession } from '../src/auth/session.repository';
import { newToken, tokenHash } from '../src/auth/tokens';
import { seedTenantLicenses } from '../src/licensing/license.service';
import { createAccessAppForTest } from './access-app';
import { csrfSession, injectSend } from './helpers';

const quiet = { info: () => {}, warn: () => {} };
const serviceToken = testSecrets().SERVICE_TOKEN;

describe('license client against the real license API', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let app: Awaited<ReturnType<typeof createAccessAppForTest>>;
  let apiUrl: string;
  let headers: Record<string, string>;
  const statuses: number[] = [];
  const dirs: string[] = [];
  const clients: HttpLicenseClient[] = [];

  const newDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'license-client-'));
    dirs.push(d);
    return d;
  };
  const client = (opts: Partial<LicenseClientOptions> = {}) => {
    const c = new HttpLicenseClient({
      apiUrl,
      serviceToken,
      cacheDir: newDir(),
      refreshSeconds: 60,
      redis: null,
      logger: quiet,
      ...opts,
    });
    clients.push(c);
    return c;
  };
  const put = (feature: string, enabled: boolean) =>
    fetch(`${apiUrl}/api/license/acme`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ feature, enabled }),
    }).then((r) => {
      expect(r.status).toBe(200);
    });

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }]);
    redis = await createTestRedis();
    app = await createAccessAppForTest(
      fleet.registry,
      { REDIS_PREFIX: redis.prefix },
      { redis: redis.redis },
    );
    // Observe what the API answered (200 vs 304) without touching the client.
    app.addHook('onResponse', async (request, reply) => {
      if (request.url === '/api/license/acme' && request.method === 'GET') statuses.push(reply.statusCode);
    });
    await seedTenantLicenses(app.accessDb!, ['acme'], ['crm']);
    const user = await createUser(
      { db: app.accessDb! },
      { email: 'lic@example.com', password: 'Correct-Horse-42!', roles: ['license-admin'] },
    );
    const token = newToken();
    await insertSession(app.accessDb!, {
      id: tokenHash(token),
      userId: user.id,
      ip: '127.0.0.1',
      userAgent: 't',
      hours: 1,
    });
    const csrf = await csrfSession(injectSend(app));
    headers = {
      cookie: `aplt_session=${token}; ${csrf.cookie}`,
      'x-csrf-token': csrf.token,
      'content-type': 'application/json',
    };
    await app.listen({ port: 0, host: '127.0.0.1' });
    apiUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await app?.close();
    await redis?.cleanup();
    await fleet?.cleanup();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('fetches at start, writes the snapshot atomically and polls with a conditional GET', async () => {
    const c = client();
    await c.start(['acme']);
    expect(c.status('acme')).toMatchObject({ source: 'api', revision: '1', lastError: null });
    expect(c.isFeatureEnabled('acme', 'crm')).toBe(false);
    expect(c.isFeatureEnabled('acme', 'quotations')).toBe(true);
    const dir = (c as unknown as { opts: { cacheDir: string } }).opts.cacheDir;
    expect(readdirSync(dir)).toEqual(['features-acme.json']);
    const snap = JSON.parse(readFileSync(join(dir, 'features-acme.json'), 'utf8'));
    expect(snap).toMatchObject({ tenant_id: 'acme', revision: '1' });
    expect(snap.features).toHaveLength(30);
    statuses.length = 0;
    await c.refresh('acme');
    expect(statuses).toEqual([304]);
  });

  it('asks the next replica of the license API when one does not answer, whichever comes first', async () => {
    const dead = 'http://127.0.0.1:1';
    for (const apiUrls of [`${dead},${apiUrl}`, `${apiUrl}/, ${dead}`]) {
      const c = client({ apiUrl: apiUrls });
      await c.start(['acme']);
      expect(c.status('acme'), apiUrls).toMatchObject({ source: 'api', revision: '1', lastError: null });
      statuses.length = 0;
      await c.refresh('acme');
      await c.refresh('acme');
      // Each refresh reached the live replica, whichever one it started at.
      expect(statuses, apiUrls).toEqual([304, 304]);
    }
  });

  it('falls back to TENANT_FEATURES when there is neither API nor snapshot, and to all-features with nothing', async () => {
    const env = client({ apiUrl: 'http://127.0.0.1:1', envFeatures: 'quotations, orders' });
    await env.start(['acme']);
    expect(env.status('acme').source).toBe('env');
    expect(env.enabledFeatures('acme')).toEqual(['quotations', 'orders']);
    const none = client({ apiUrl: 'http://127.0.0.1:1' });
    await none.start(['acme']);
    expect(none.status('acme').source).toBe('all-features');
    expect(none.isFeatureEnabled('acme', 'crm')).toBe(true);
  });

  it("single-tenant form: TENANT_FEATURES is TENANT_ID's list only, and TENANT_ID is fetched even when the registry does not list it", async () => {
    const offline = client({ apiUrl: 'http://127.0.0.1:1', envFeatures: 'quotations', tenantId: 'acme' });
    await offline.start(['acme', 'hooli']);
    expect(offline.status('acme').source).toBe('env');
    expect(offline.enabledFeatures('acme')).toEqual(['quotations']);
    // Another tenant the process serves does not inherit acme's list.
    expect(offline.status('hooli').source).toBe('all-features');
    expect(offline.isFeatureEnabled('hooli', 'crm')).toBe(true);

    const cacheDir = newDir();
    const single = createLicenseClientFromEnv(
      {
        LICENSE_API_URL: apiUrl,
        SERVICE_TOKEN: serviceToken,
        LICENSE_CACHE_DIR: cacheDir,
        LICENSE_PUSH: 'false',
        TENANT_ID: 'acme',
        TENANT_FEATURES: 'quotations',
      },
      { logger: quiet },
    );
    clients.push(single as HttpLicenseClient);
    // An empty registry list: the spec's backend knows its tenant from TENANT_ID alone.
    await single.start([]);
    expect(single.status('acme')).toMatchObject({ source: 'api', lastError: null });
    expect(single.isFeatureEnabled('acme', 'crm')).toBe(false);
    expect(single.isFeatureEnabled('acme', 'invoices')).toBe(true);
    expect(existsSync(join(cacheDir, 'features-acme.json'))).toBe(true);
  });

  it('reads its variables through @aplt/config: a bad value is refused naming the variable', () => {
    const bad = (extra: Record<string, string>) => () =>
      createLicenseClientFromEnv({ LICENSE_CACHE_DIR: newDir(), LICENSE_PUSH: 'false', ...extra });
    expect(bad({ LICENSE_REFRESH_SECONDS: 'often' })).toThrow(/LICENSE_REFRESH_SECONDS/);
    expect(bad({ LICENSE_PUSH: 'sometimes' })).toThrow(/LICENSE_PUSH/);
    expect(bad({ LICENSE_FETCH_TIMEOUT_MS: '0' })).toThrow(/LICENSE_FETCH_TIMEOUT_MS/);
    expect(bad({ LICENSE_API_URL: '' })).not.toThrow();
  });

  it('never broadens access during an outage: a failed refresh keeps the last known set', async () => {
    const opts: LicenseClientOptions = {
      apiUrl,
      serviceToken,
      cacheDir: newDir(),
      refreshSeconds: 60,
      redis: null,
      logger: quiet,
    };
    const c = new HttpLicenseClient(opts);
    clients.push(c);
    await c.start(['acme']);
    opts.apiUrl = 'http://127.0.0.1:1';
    await c.refresh('acme');
    expect(c.isFeatureEnabled('acme', 'crm')).toBe(false);
    expect(c.status('acme').lastError).toMatch(/license API unreachable/);
    // A restart during the outage starts from the snapshot, not from all-features mode.
    const restarted = client({ apiUrl: 'http://127.0.0.1:1', cacheDir: opts.cacheDir });
    await restarted.start(['acme']);
    expect(restarted.status('acme').source).toBe('snapshot');
    expect(restarted.isFeatureEnabled('acme', 'crm')).toBe(false);
  });

  it('sends SERVICE_TOKEN from its env; a refusal (401) never broadens access', async () => {
    const cacheDir = newDir();
    const fromEnv = createLicenseClientFromEnv(
      {
        LICENSE_API_URL: apiUrl,
        SERVICE_TOKEN: serviceToken,
        LICENSE_CACHE_DIR: cacheDir,
        LICENSE_PUSH: 'false',
      },
      { logger: quiet },
    );
    clients.push(fromEnv as HttpLicenseClient);
    await fromEnv.start(['acme']);
    expect(fromEnv.status('acme')).toMatchObject({ source: 'api', lastError: null });
    expect(fromEnv.isFeatureEnabled('acme', 'crm')).toBe(false);

    // A wrong token: the snapshot stays in force, crm stays off, and the status says why.
    statuses.length = 0;
    const wrong = client({ serviceToken: [...serviceToken].reverse().join(''), cacheDir });
    await wrong.start(['acme']);
    expect(statuses).toEqual([401]);
    expect(wrong.status('acme')).toMatchObject({ source: 'snapshot' });
    expect(wrong.status('acme').lastError).toMatch(/refused this service \(401\).*SERVICE_TOKEN/);
    expect(wrong.isFeatureEnabled('acme', 'crm')).toBe(false);

    // A client that was in API mode keeps its set when the API starts refusing it.
    const opts: LicenseClientOptions = {
      apiUrl,
      serviceToken,
      cacheDir: newDir(),
      refreshSeconds: 60,
      redis: null,
      logger: quiet,
    };
    const rotated = new HttpLicenseClient(opts);
    clients.push(rotated);
    await rotated.start(['acme']);
    opts.serviceToken = undefined;
    await rotated.refresh('acme');
    expect(rotated.status('acme')).toMatchObject({
      source: 'api',
      lastError: expect.stringContaining('401'),
    });
    expect(rotated.isFeatureEnabled('acme', 'crm')).toBe(false);
    expect(rotated.enabledFeatures('acme')).toHaveLength(30);
  });

  it('refreshes on push, and only by polling when push is off', async () => {
    const pushed = client({ redis: { url: redis.url, prefix: redis.prefix } });
    const polled = client();
    await Promise.all([pushed.start(['acme']), polled.start(['acme'])]);
    await expect.poll(() => pushed.pushConnected).toBe(true);
    await put('crm', true);
    await expect.poll(() => pushed.isFeatureEnabled('acme', 'crm'), { timeout: 1000 }).toBe(true);
    expect(polled.isFeatureEnabled('acme', 'crm')).toBe(false);
    await polled.refresh('acme');
    expect(polled.isFeatureEnabled('acme', 'crm')).toBe(true);
    await put('crm', false);
  });

  it('resubscribes by itself after the push connection is dropped', async () => {
    const c = client({ redis: { url: redis.url, prefix: redis.prefix } });
    await c.start(['acme']);
    await expect.poll(() => c.pushConnected).toBe(true);
    const list = String(await redis.redis.client('LIST'));
    const id = new RegExp(`id=(\\d+) [^\\n]*name=${c.connectionName}`).exec(list)?.[1];
    expect(id).toBeTruthy();
    await redis.redis.client('KILL', 'ID', id!);
    await expect.poll(() => c.pushConnected).toBe(false);
    await expect.poll(() => c.pushConnected, { timeout: 5000 }).toBe(true);
    // Let the catch-up refresh that follows a reconnect settle, so only a push can explain what follows.
    await c.refresh('acme');
    await put('reports', false);
    await expect.poll(() => c.isFeatureEnabled('acme', 'reports'), { timeout: 1000 }).toBe(false);
    await put('reports', true);
  });

  it('leaves no temporary files behind and never exposes a half-written snapshot', async () => {
    const dir = newDir();
    const readers = Array.from({ length: 5 }, () => client({ cacheDir: dir }));
    await Promise.all(readers.map((c) => c.start(['acme'])));
    await Promise.all(readers.map((c) => c.refresh('acme')));
    expect(readdirSync(dir)).toEqual(['features-acme.json']);
    expect(() => JSON.parse(readFileSync(join(dir, 'features-acme.json'), 'utf8'))).not.toThrow();
    expect(existsSync(join(dir, 'features-acme.json'))).toBe(true);
  });

  it('treats a damaged snapshot as none, and fetches a tenant first seen after start at once', async () => {
    const dir = newDir();
    writeFileSync(join(dir, 'features-acme.json'), '{"tenant_id": "acme", "featu');
    const offline = client({ apiUrl: 'http://127.0.0.1:1', cacheDir: dir, envFeatures: 'quotations' });
    await offline.start(['acme']);
    expect(offline.status('acme').source).toBe('env');

    const late = client();
    await late.start([]);
    expect(late.status('acme').source).toBe('all-features');
    await expect.poll(() => late.status('acme').source).toBe('api');
    expect(late.isFeatureEnabled('acme', 'crm')).toBe(false);
  });
});
