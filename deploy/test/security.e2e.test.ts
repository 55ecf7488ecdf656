import { createHash, createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createPgDb, sql } from '@aplt/db';
import { AssertionSigner, signActorToken, tenantJwtSecret } from '@aplt/http';
import { httpRequest, testServers } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAdmin } from '../fleet/seeds/demo-tenants';
import { demoAccessAdmin } from '../fleet/seeds/access';
import { parseEnvFile } from '../secrets';
import { AccessClient, cookieHeader } from './access-client';
import { type FleetFixture, startFleetFixture } from './fleet-fixture';
import { operationsOf, sweep, type SweepTarget } from './malformed-sweep';

/**
 * The attack list (#13), replayed against the real start command's fleet through the real
 * proxy. "Outsider" requests come from 127.0.0.2 (not whitelisted); requests that must first pass
 * forward auth to reach the backend's own checks come from the machine itself (whitelisted), as an
 * insider with a stolen or forged credential would.
 */
describe('the trust boundary, tried as an attacker through the proxy', () => {
  let fx: FleetFixture;
  let secrets: Record<string, string>;
  const OUTSIDER = '127.0.0.2';
  const tokens = new Map<string, string>();

  async function adminToken(tenant: string, password = demoAdmin.password): Promise<string> {
    const res = await fx.via(`${tenant}.localhost`, '/auth/user/emailpass', {
      method: 'POST',
      body: { email: demoAdmin.email, password },
    });
    expect(res.status, `${tenant} login: ${res.text()}`).toBe(200);
    return res.json().token as string;
  }
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  /** Commerce database of a tenant, from the registry. */
  async function commerceDb(tenant: string) {
    const { pg } = testServers();
    const control = createPgDb({ ...pg, database: `${fx.prefix}control` }, { max: 1 });
    try {
      const row = await sql<{
        name: string;
      }>`select commerce_db->>'database' as name from tenants where id = ${tenant}`.execute(control);
      return createPgDb({ ...pg, database: row.rows[0]!.name }, { max: 1 });
    } finally {
      await control.destroy();
    }
  }

  beforeAll(async () => {
    fx = await startFleetFixture('master,acme,hooli,stark');
    secrets = parseEnvFile(readFileSync(fx.secretsFile, 'utf8'));
    for (const t of ['master', 'acme', 'hooli', 'stark']) tokens.set(t, await adminToken(t));
  }, 400_000);

  afterAll(async () => {
    await fx?.stop();
  }, 120_000);

  it('1. secrets from the repository mint nothing, and a token of a deleted user is refused', async () => {
    const claims = {
      actor_id: 'user_forged',
      actor_type: 'user',
      auth_identity_id: 'authid_forged',
      app_metadata: { user_id: 'user_forged' },
    };
    for (const tenant of ['acme', 'master']) {
      const forged = await signActorToken(
        tenantJwtSecret('dev-only-jwt-secret-change-me', tenant),
        claims,
        3600,
      );
      for (const localAddress of [OUTSIDER, '127.0.0.1']) {
        const res = await fx.via(`${tenant}.localhost`, '/admin/aplt/invoices', {
          headers: bearer(forged),
          localAddress,
        });
        expect(res.status, `${tenant} from ${localAddress}`).toBe(401);
      }
    }
    // A CAPTCHA solution signed with the old published key.
    const salt = `${randomBytes(12).toString('hex')}?expires=${Math.floor(Date.now() / 1000) + 600}`;
    const challenge = createHash('sha256').update(`${salt}7`).digest('hex');
    const signature = createHmac('sha256', 'dev-only-captcha-secret-change-me')
      .update(challenge)
      .digest('hex');
    const client = new AccessClient(fx, '127.0.0.9');
    await client.request('GET', '/api/auth/csrf');
    const login = await client.request('POST', '/api/auth/login', {
      email: demoAccessAdmin.email,
      password: demoAccessAdmin.password,
      captcha: { algorithm: 'SHA-256', challenge, salt, signature, number: 7 },
    });
    expect(login.status).toBeGreaterThanOrEqual(400);
    expect(login.status).toBeLessThan(500);
    // A real token stops working when its user is deleted.
    const token = await adminToken('hooli');
    expect((await fx.via('hooli.localhost', '/admin/aplt/invoices', { headers: bearer(token) })).status).toBe(
      200,
    );
    const db = await commerceDb('hooli');
    try {
      await sql`update "user" set deleted_at = now() where email = ${demoAdmin.email}`.execute(db);
      const after = await fx.via('hooli.localhost', '/admin/aplt/invoices', { headers: bearer(token) });
      expect(after.status).toBe(401);
    } finally {
      await sql`update "user" set deleted_at = null where email = ${demoAdmin.email}`.execute(db);
      await db.destroy();
    }
  });

  it('2. a disabled feature stays disabled in every spelling of its path', async () => {
    const admin = new AccessClient(fx, '127.0.0.3');
    await admin.login(demoAccessAdmin.email, demoAccessAdmin.password);
    const off = await admin.request('PUT', '/api/license/acme/bulk', {
      features: ['invoices', 'products', 'ai_assist'],
      enabled: false,
      reason: 'security suite',
    });
    expect(off.status, off.text()).toBe(200);
    const headers = bearer(tokens.get('acme')!);
    // Push invalidation reaches the backends within a moment; wait for the plain path first.
    for (let i = 0; i < 100; i++) {
      if ((await fx.via('acme.localhost', '/admin/aplt/invoices', { headers })).status === 403) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const [method, path, feature] of [
      ['GET', '/admin/aplt/invoices', 'invoices'],
      ['GET', '/admin/aplt/%69nvoices', 'invoices'],
      ['GET', '/store/aplt/%70roducts', 'products'],
      ['GET', '/store/aplt/products', 'products'],
      ['POST', '/admin/agent/%70roduct-search', 'ai_assist'],
      ['POST', '/admin/agent/product-search', 'ai_assist'],
    ] as const) {
      const res = await fx.via('acme.localhost', path, {
        method,
        headers,
        ...(method === 'POST' ? { body: { query: 'pen' } } : {}),
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json()).toMatchObject({ message: 'Feature not available', feature });
    }
    const on = await admin.request('PUT', '/api/license/acme/bulk', {
      features: ['invoices', 'products'],
      enabled: true,
    });
    expect(on.status).toBe(200);
  });

  it('3. a backend port reached around the proxy answers 401, whatever it is sent', async () => {
    const res = await httpRequest(`http://127.0.0.1:${fx.fleet.ports.documents}/admin/aplt/invoices`, {
      host: 'acme.localhost',
      localAddress: '127.0.0.7',
      headers: {
        ...bearer(tokens.get('acme')!),
        'x-auth-user': 'admin@aplt.localhost',
        'x-auth-via': 'session',
      },
    });
    expect(res.status).toBe(401);
    const internal = await httpRequest(
      `http://127.0.0.1:${fx.fleet.ports.devprojects}/internal/dev-projects/from-ticket`,
      { method: 'POST', localAddress: '127.0.0.7', body: { tenant_id: 'hooli' } },
    );
    expect(internal.status).toBe(401);
  });

  it("4. an access session of a tenant's user passes only on that tenant's hosts", async () => {
    const admin = new AccessClient(fx, '127.0.0.3');
    await admin.login(demoAccessAdmin.email, demoAccessAdmin.password);
    const email = `bound-${randomBytes(4).toString('hex')}@acme.localhost`;
    const password = 'Bound-User-2026!';
    const created = await admin.request('POST', '/api/admin/users', { email, password, tenant_id: 'acme' });
    expect(created.status, created.text()).toBe(201);
    const user = new AccessClient(fx, '127.0.0.4');
    await user.login(email, password, 'Bound-User-2026!-next');
    const session = user.jar.aplt_session;
    expect(session).toBeTruthy();
    const as = (host: string) =>
      fx.via(host, '/', {
        localAddress: '127.0.0.4',
        headers: { cookie: cookieHeader({ aplt_session: session! }), accept: 'application/json' },
      });
    expect((await as('acme.localhost')).status).toBe(200);
    for (const other of ['hooli.localhost', 'stark.localhost', 'master.localhost'])
      expect((await as(other)).status, other).toBe(401);
    // Platform staff (no tenant) pass everywhere.
    const staff = admin.jar.aplt_session!;
    for (const host of ['acme.localhost', 'hooli.localhost']) {
      const res = await fx.via(host, '/', {
        localAddress: '127.0.0.3',
        headers: { cookie: cookieHeader({ aplt_session: staff }), accept: 'application/json' },
      });
      expect(res.status, host).toBe(200);
    }
  });

  it('5. the health prefix forwards only health, and /internal is never routed', async () => {
    for (const localAddress of [OUTSIDER, '127.0.0.1']) {
      const res = await fx.via('acme.localhost', '/-/devprojects/internal/dev-projects/from-ticket', {
        method: 'POST',
        body: { tenant_id: 'hooli', ticket: {} },
        localAddress,
      });
      expect([401, 404], localAddress).toContain(res.status);
      const internal = await fx.via('acme.localhost', '/internal/dev-projects/from-ticket', {
        method: 'POST',
        body: { tenant_id: 'hooli' },
        localAddress,
      });
      expect(internal.status).toBe(403);
    }
    expect((await fx.via('acme.localhost', '/-/devprojects/healthz')).status).toBe(200);
  });

  it('6a. 30 concurrent wrong passwords on the access login get at most the limit of checks', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const c = new AccessClient(fx, '127.0.0.5');
        return (await c.start(demoAccessAdmin.email, 'Wrong-Password-1!')).status;
      }),
    );
    const checked = attempts.filter((s) => s === 401).length;
    expect(checked, String(attempts)).toBeGreaterThan(0);
    expect(checked, String(attempts)).toBeLessThanOrEqual(5);
    expect(attempts.filter((s) => s !== 401 && s !== 429)).toEqual([]);
  });

  it('6b. emailpass counts respelled hosts as one and locks the account without telling whether it exists', async () => {
    const hosts = ['STARK.LOCALHOST', 'Stark.localhost', 'stark.localhost'];
    const tries = (email: string, password: string, n: number) =>
      Promise.all(
        Array.from({ length: n }, (_, i) =>
          fx.via(hosts[i % hosts.length]!, '/auth/user/emailpass', {
            method: 'POST',
            body: { email, password },
          }),
        ),
      );
    const wrong = await tries(demoAdmin.email, 'Wrong-Password-1!', 12);
    expect(wrong.every((r) => r.status === 401 || r.status === 429)).toBe(true);
    const right = await fx.via('stark.localhost', '/auth/user/emailpass', {
      method: 'POST',
      body: { email: demoAdmin.email, password: demoAdmin.password },
    });
    expect(right.status).not.toBe(200);
    const ghostWrong = await tries('nobody@aplt.localhost', 'Wrong-Password-1!', 12);
    const ghost = ghostWrong.at(-1)!;
    expect(ghost.status).toBe(right.status);
    // The same answer; only the seconds left differ, by how long each round ran after its lock.
    type Limited = { message: string; retry_after: number };
    const [g, r] = [ghost.json() as Limited, right.json() as Limited];
    const sansSeconds = (b: Limited) => ({ ...b, message: b.message.replace(/\d+/g, 'N'), retry_after: 'N' });
    expect(sansSeconds(g)).toEqual(sansSeconds(r));
    expect(Math.abs(g.retry_after - r.retry_after)).toBeLessThanOrEqual(10);
  });

  it('8. a NUL byte, a lone surrogate or an oversize body is a 4xx with the error body, never a 5xx', async () => {
    const headers = bearer(tokens.get('acme')!);
    const cases: Array<[string, string, string, object?]> = [
      ['acme.localhost', 'GET', '/store/aplt/products?q=%00'],
      ['acme.localhost', 'GET', '/store/aplt/categories?lang=%00'],
      ['acme.localhost', 'GET', '/admin/aplt/quotations?q=%00'],
      ['acme.localhost', 'GET', '/admin/aplt/invoices?status=%00'],
      ['acme.localhost', 'POST', '/auth/user/emailpass', { email: 'a\u0000@x.io', password: 'x' }],
      ['acme.localhost', 'POST', '/auth/customer/emailpass', { email: 'a@x.io', password: '\u0000' }],
      ['acme.localhost', 'POST', '/auth/user/emailpass/reset-password', { identifier: '\u0000' }],
      ['acme.localhost', 'POST', '/auth/user/emailpass/update', { token: 'x\u0000', password: 'y' }],
      ['acme.localhost', 'POST', '/store/access-request', { name: '\ud800', email: 'a@x.io' }],
      ['acme.localhost', 'POST', '/admin/aplt/quotations', { customer_id: '\u0000' }],
      ['acme.localhost', 'GET', '/admin/dev-projects/%00'],
      ['modal.localhost', 'POST', '/api/transactions', { productSku: '\u0000' }],
      ['modal.localhost', 'GET', '/api/config-check/%00'],
      ['access.localhost', 'GET', '/api/license/%00'],
      ['portal.localhost', 'POST', '/api/auth/login', { email: '\u0000' }],
    ];
    // The portal checks its CSRF token first: with a real one, the body itself must be refused.
    const portalCsrf = await fx.via('portal.localhost', '/api/csrf');
    const portalHeaders = {
      'x-csrf-token': portalCsrf.json().csrf_token as string,
      cookie: String(portalCsrf.headers['set-cookie']).split(';')[0]!,
    };
    for (const [host, method, path, body] of cases) {
      const res = await fx.via(host, path, {
        method,
        headers: host === 'portal.localhost' ? portalHeaders : headers,
        ...(body === undefined ? {} : { body }),
      });
      if (host === 'portal.localhost') expect(res.json().type).toBe('invalid_data');
      expect(res.status, `${method} ${host}${path}: ${res.text()}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${host}${path}: ${res.text()}`).toBeLessThan(500);
      expect(typeof res.json().type, `${host}${path}`).toBe('string');
    }
    // A non-ASCII CSRF token is a refusal, not a crash.
    const csrf = await fx.via('access.localhost', '/api/auth/logout', {
      method: 'POST',
      localAddress: OUTSIDER,
      headers: { 'x-csrf-token': 'ünïcödé', cookie: 'aplt_csrf=abc' },
    });
    expect(csrf.status).toBe(403);
    // Over a megabyte to the modal: its own 413, through the proxy.
    const big = await fx.via('modal.localhost', '/api/transactions', {
      method: 'POST',
      localAddress: OUTSIDER,
      body: { productSku: 'x'.repeat(1_200_000) },
    });
    expect(big.status).toBe(413);
    expect(big.json()).toMatchObject({ type: 'payload_too_large' });
  });

  it('9. callback addresses that lead back inside are refused at creation', async () => {
    for (const url of [
      'http://[::7f00:1]/',
      'http://[::ffff:0:7f00:1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[64:ff9b:1::a00:1]/',
      'http://[2002:7f00:1::]/',
      'http://192.0.2.1/',
      'http://[2001:db8::1]/',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.1/',
      'http://localhost:4103/',
    ]) {
      const res = await fx.via('modal.localhost', '/api/transactions', {
        method: 'POST',
        localAddress: OUTSIDER,
        body: { productSku: '900-01', callbackUrl: url },
      });
      expect(res.status, `${url}: ${res.text()}`).toBe(400);
      // Refused for the address, not for anything else in the body.
      expect(res.json()).toMatchObject({ field: 'callbackUrl' });
    }
  });

  it('10. metrics, docs and the tenant list are not for the public', async () => {
    for (const path of ['/metrics', '/docs', '/docs/json']) {
      const res = await fx.via('access.localhost', path, { localAddress: OUTSIDER });
      expect(res.status, path).toBe(404);
    }
    for (const path of ['/api/license/tenants', '/api/license/acme']) {
      const res = await fx.via('access.localhost', path, { localAddress: OUTSIDER });
      expect(res.status, path).toBe(401);
    }
    expect((await fx.via('acme.localhost', '/docs/json', { localAddress: OUTSIDER })).status).toBe(401);
    expect((await fx.via('acme.localhost', '/docs/json')).status).toBe(404);
  });

  it("11. a tenant's admin cannot overwrite other tenants' catalogs or import into the master", async () => {
    const headers = bearer(tokens.get('acme')!);
    const update = await fx.via('acme.localhost', '/admin/tenant-update', {
      method: 'POST',
      headers,
      body: { tenant_ids: ['hooli', 'stark'] },
    });
    expect(update.status).toBe(403);
    const sync = await fx.via('acme.localhost', '/admin/connectors/sync?connector=midocean', {
      method: 'POST',
      headers,
    });
    expect(sync.status).toBe(403);
    // The master's admin may.
    const master = await fx.via('master.localhost', '/admin/tenant-update', {
      method: 'POST',
      headers: bearer(tokens.get('master')!),
      body: { tenant_ids: ['stark'] },
    });
    expect(master.status, master.text()).toBe(202);
  });

  it("12. a tenant's shop host is public at forward auth; its backend host, unknown shop hosts and a leaked shop assertion are not", async () => {
    // The public reaches the storefront's access page (the gatekeeper decides there)...
    const toegang = await fx.via('shop.acme.localhost', '/toegang', {
      localAddress: OUTSIDER,
      headers: { accept: 'text/html' },
    });
    expect(toegang.status, toegang.text().slice(0, 300)).toBe(200);
    // ...and never sees the assertion the proxy gave the storefront (an EdDSA JWT header).
    expect(toegang.headers['x-access-assertion']).toBeUndefined();
    expect(toegang.text()).not.toContain('eyJhbGciOiJFZERTQSI');
    // The same address is refused on the tenant's backend host and on a shop host of no tenant.
    for (const [host, path] of [
      ['acme.localhost', '/store/aplt/products'],
      ['acme.localhost', '/admin/aplt/invoices'],
      ['shop.nobody.localhost', '/toegang'],
    ] as const) {
      const res = await fx.via(host, path, {
        localAddress: OUTSIDER,
        headers: { accept: 'application/json' },
      });
      expect(res.status, `${host}${path}`).toBe(401);
      expect(res.json()).toMatchObject({ type: 'unauthorized', ip: OUTSIDER });
    }
    // /internal is the proxy's 403 on the shop host too.
    const internal = await fx.via('shop.acme.localhost', '/internal/dev-projects/from-ticket', {
      method: 'POST',
      body: {},
      localAddress: OUTSIDER,
    });
    expect(internal.status).toBe(403);
    // A shop visitor's assertion, had it leaked, opens store routes of that tenant only.
    const signer = new AssertionSigner(secrets.ACCESS_ASSERTION_PRIVATE_KEY!);
    const visitor = {
      host: 'shop.acme.localhost',
      'x-access-assertion': signer.sign({
        sub: 'visitor',
        host: 'shop.acme.localhost',
        tenant: 'acme',
        reason: 'shop',
        roles: [],
      }),
    };
    const direct = (service: 'catalog' | 'documents' | 'admin', path: string, headers = {}) =>
      httpRequest(`http://127.0.0.1:${fx.fleet.ports[service]}${path}`, {
        host: 'shop.acme.localhost',
        localAddress: '127.0.0.7',
        headers: { ...visitor, ...headers },
      });
    expect((await direct('catalog', '/store/aplt/products?limit=1')).status).toBe(200);
    for (const [service, path] of [
      ['catalog', '/admin/aplt/products'],
      ['documents', '/admin/aplt/invoices'],
      ['admin', '/admin/features'],
      ['admin', '/app'],
    ] as const) {
      const res = await direct(service, path, bearer(tokens.get('acme')!));
      expect(res.status, `${service} ${path}`).toBe(401);
    }
  });

  it('route inventory: every admin and store route of every tenant backend declares its feature', async () => {
    const inventory: string[] = [];
    const undeclared: string[] = [];
    for (const service of [
      'auth',
      'password-sync',
      'documents',
      'catalog',
      'gatekeeper',
      'devprojects',
      'admin',
    ] as const) {
      for (const { path, method, op } of await operationsOf(fx.fleet.ports[service])) {
        if (!/^\/(admin|store)(\/|$)/.test(path)) continue;
        const tags = ((op.tags ?? []) as string[]).filter((t) => t.startsWith('feature:'));
        if (tags.length !== 1) undeclared.push(`${service} ${method} ${path}`);
        else inventory.push(`${service} ${method} ${path} ${tags[0]}`);
      }
    }
    expect(undeclared).toEqual([]);
    expect(inventory.length).toBeGreaterThan(60);
    // The licensed routes cover most of the catalog's features, not the 12 the old URL map knew.
    const features = new Set(inventory.map((l) => l.split(' ').at(-1)).filter((t) => t !== 'feature:none'));
    expect(features.size).toBeGreaterThanOrEqual(10);
  });

  it('sends malformed input to every route of every service and gets no 5xx', async () => {
    const signer = new AssertionSigner(secrets.ACCESS_ASSERTION_PRIVATE_KEY!);
    const backend = (host: string) => ({
      host,
      'x-access-assertion': signer.sign({
        sub: 'whitelist',
        host,
        tenant: 'hooli',
        reason: 'whitelist',
        roles: [],
      }),
      ...bearer(tokens.get('hooli')!),
    });
    const ports = fx.fleet.ports;
    const targets: SweepTarget[] = (
      ['auth', 'password-sync', 'documents', 'catalog', 'gatekeeper', 'devprojects', 'admin'] as const
    ).map((service) => ({ service, port: ports[service], headers: backend('hooli.localhost') }));
    targets.push(
      { service: 'access', port: ports.access, headers: { host: 'access.localhost' } },
      { service: 'portal', port: ports.portal, headers: { host: 'portal.localhost' } },
      { service: 'logo-modal', port: ports['logo-modal'], headers: { host: 'modal.localhost' } },
    );
    const result = await sweep(targets);
    console.log(
      `malformed sweep: ${result.requests} requests to ${result.routes} routes of ${targets.length} services, statuses ${JSON.stringify(result.statuses)}`,
    );
    // Most probes must reach the input checks (400), not stop at authentication.
    expect(result.statuses['400'] ?? 0).toBeGreaterThan(result.requests / 3);
    expect(result.routes).toBeGreaterThan(80);
    expect(result.requests).toBeGreaterThan(result.routes * 10);
    expect(result.findings).toEqual([]);
  }, 600_000);

  it('7. a password reset retires older reset links and every earlier token, and links come from the registry', async () => {
    const before = await adminToken('acme');
    const links: string[] = [];
    for (const host of ['acme.localhost:31337', 'acme.localhost']) {
      const since = fx.output.length;
      const res = await fx.via(host, '/auth/user/emailpass/reset-password', {
        method: 'POST',
        body: { identifier: demoAdmin.email },
      });
      expect(res.status).toBe(201);
      let line: string | undefined;
      for (let i = 0; i < 200 && !line; i++) {
        line = fx.output
          .slice(since)
          .find((l) => l.includes(`mail to ${demoAdmin.email}`) && l.includes('token='));
        if (!line) await new Promise((r) => setTimeout(r, 50));
      }
      expect(line).toBeDefined();
      const link = /(https?:\/\/\S+)/.exec(line!)![1]!;
      expect(link).not.toContain(':31337');
      expect(link.startsWith(`http://acme.localhost:${fx.proxyPort}/`)).toBe(true);
      links.push(link);
    }
    const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
    const newPassword = 'Demo-Admin-2026!-reset';
    const used = await fx.via('acme.localhost', '/auth/user/emailpass/update', {
      method: 'POST',
      headers: bearer(tokenOf(links[1]!)),
      body: { email: demoAdmin.email, password: newPassword },
    });
    expect(used.status, used.text()).toBe(200);
    const older = await fx.via('acme.localhost', '/auth/user/emailpass/update', {
      method: 'POST',
      headers: bearer(tokenOf(links[0]!)),
      body: { email: demoAdmin.email, password: 'Another-Password-2026!' },
    });
    expect(older.status).toBe(401);
    const stale = await fx.via('acme.localhost', '/admin/aplt/quotations', { headers: bearer(before) });
    expect(stale.status).toBe(401);
    const fresh = await adminToken('acme', newPassword);
    expect(
      (await fx.via('acme.localhost', '/admin/aplt/quotations', { headers: bearer(fresh) })).status,
    ).toBe(200);
  });
});
