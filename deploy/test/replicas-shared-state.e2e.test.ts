import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AccessDatabase, sql } from '@aplt/db';
import { invalidationChannel, licenseChannel } from '@aplt/licensing';
import {
  createTestFleet,
  createTestPgDatabase,
  createTestRedis,
  freePort,
  type HttpReceiver,
  httpRequest,
  type HttpResponse,
  type SmtpSink,
  startHttpReceiver,
  startSmtpSink,
  type TestFleet,
  type TestPgDatabase,
  type TestRedis,
  testSecrets,
  viaProxy,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, seedTenantLicenses } from '@aplt/service-access/seed';
import { cookieHeader, cookiesOf, type Send, startLogin } from '@aplt/service-access/testing';
import { seedDemoAdmins } from '../../services/auth/test/helpers';
import { demoAdmin } from '../fleet/seeds/demo-tenants';
import { storeCacheChannel, storeChangedPublisher } from '@aplt/service-catalog/store-cache';

/**
 * Issue #18, shared state only in shared places: two replicas each of the access, auth and
 * catalog services, every one a real process (`node --import tsx services/<x>/src/server.ts`,
 * as the fleet runs them) on its own port, against the same databases and the same Redis. The
 * test talks to each replica directly: what one replica was told, the other must know.
 */

const ADMIN = { email: 'ops@example.com', password: 'Correct-Horse-42!' };
/** Long enough that no TTL can explain a replica seeing another's change: only the push can. */
const LONG_CACHE_SECONDS = '600';

interface Replica {
  name: string;
  url: string;
  child: ChildProcess;
  output: string[];
}

async function startReplica(name: string, service: string, env: Record<string, string>): Promise<Replica> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', `services/${service}/src/server.ts`], {
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  // Generous: several tsx processes start together on a shared, often loaded two-core machine.
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} exited during start-up:\n${output.join('')}`);
    const ok = await httpRequest(`${url}/healthz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} not healthy within 240 s:\n${output.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { name, url, child, output };
}

async function stopReplica(r: Replica | undefined): Promise<void> {
  if (!r || r.child.exitCode !== null || r.child.signalCode !== null) return;
  const exited = once(r.child, 'exit');
  r.child.kill('SIGTERM');
  const timer = setTimeout(() => r.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Polls `check` until it holds; fails naming the last value once `ms` have passed. */
async function within<T>(ms: number, probe: () => Promise<T>, check: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + ms;
  let last: T;
  for (;;) {
    last = await probe();
    if (check(last)) return last;
    if (Date.now() > deadline)
      throw new Error(`not within ${ms} ms; last: ${JSON.stringify(last, (_k, v) => v)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const sendTo =
  (base: string): Send =>
  (path, opts = {}) =>
    httpRequest(`${base}${path}`, {
      method: opts.method ?? 'GET',
      host: 'access.localhost',
      ...(opts.headers ? { headers: opts.headers } : {}),
      ...(opts.body !== undefined ? { body: opts.body as object } : {}),
    });

describe('two replicas per service share their state (issue #18)', () => {
  let fleet: TestFleet;
  let accessDb: TestPgDatabase<AccessDatabase>;
  let redis: TestRedis;
  let hook: HttpReceiver;
  let sink: SmtpSink;
  let cacheDir: string;
  const replicas: Record<string, Replica> = {};

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'beta' }]);
    await seedDemoAdmins(fleet.registry, fleet.databases);
    [accessDb, redis, hook, sink] = await Promise.all([
      createTestPgDatabase('access'),
      createTestRedis(),
      startHttpReceiver(),
      startSmtpSink(),
    ]);
    await createUser({ db: accessDb.db }, { ...ADMIN, roles: ['access-admin', 'license-admin'] });
    // Every feature on for both tenants, as the demo seed starts them.
    await seedTenantLicenses(accessDb.db, ['acme', 'beta'], []);
    cacheDir = mkdtempSync(join(tmpdir(), 'replicas-licenses-'));
    const common: Record<string, string> = {
      ...fleet.env,
      ...(testSecrets() as unknown as Record<string, string>),
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      LOG_LEVEL: 'warn',
      LICENSE_CACHE_DIR: cacheDir,
      // Polling alone would take this long: a change seen within a second came by push.
      LICENSE_REFRESH_SECONDS: LONG_CACHE_SECONDS,
    };
    const accessEnv = {
      ...common,
      PG_DB: accessDb.name,
      ACCESS_OTP_CHANNEL: 'webhook',
      ACCESS_OTP_WEBHOOK_URL: `${hook.url}/otp`,
      ACCESS_CAPTCHA_MAX_NUMBER: '2000',
      ACCESS_CACHE_SECONDS: LONG_CACHE_SECONDS,
      // Loopback is not whitelisted here: forward auth must decide by the session.
      ACCESS_STATIC_WHITELIST: '192.0.2.1/32',
    };
    replicas.accessA = await startReplica('access-a', 'access', accessEnv);
    const tenantEnv = { ...common, LICENSE_API_URL: replicas.accessA!.url };
    const authEnv = {
      ...tenantEnv,
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(sink.port),
      SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
      MAIL_PASSWORD: 'replicas-test',
      AUTH_LOCKOUT_MAX_FAILURES: '4',
      LOGIN_RATE_MAX: '6',
    };
    const catalogEnv = { ...tenantEnv, CATALOG_STORE_CACHE_SECONDS: LONG_CACHE_SECONDS };
    // Each service's second replica starts after its first: tsx's compile cache is warm by then,
    // where six cold starts at once starve a shared two-core machine. Every replica is recorded
    // as soon as it runs, so afterAll stops it even when a later one fails to start.
    const pair = async (service: string, env: Record<string, string>) => {
      replicas[`${service}A`] = await startReplica(`${service}-a`, service, env);
      replicas[`${service}B`] = await startReplica(`${service}-b`, service, env);
    };
    await Promise.all([
      startReplica('access-b', 'access', accessEnv).then((r) => (replicas.accessB = r)),
      pair('auth', authEnv),
      pair('catalog', catalogEnv),
    ]);
    // Every replica listens on its channels before anything is changed (subscribing is async).
    const subscribers = async (channel: string) =>
      Number(((await redis.redis.pubsub('NUMSUB', channel)) as [string, number])[1]);
    await within(
      20_000,
      () => subscribers(licenseChannel(redis.prefix)),
      (n) => n >= 4,
    );
    await within(
      20_000,
      () => subscribers(invalidationChannel(redis.prefix, 'access')),
      (n) => n >= 2,
    );
    await within(
      20_000,
      () => subscribers(storeCacheChannel(redis.prefix)),
      (n) => n >= 2,
    );
  }, 900_000);

  afterAll(async () => {
    await Promise.allSettled(Object.values(replicas).map((r) => stopReplica(r)));
    await Promise.allSettled([hook?.close(), sink?.close(), accessDb?.drop(), redis?.cleanup()]);
    await fleet?.cleanup();
    if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
  }, 60_000);

  /** Signs in on one access replica (CAPTCHA, password, one-time code), as a browser would. */
  async function signIn(send: Send) {
    const before = hook.requests.length;
    const { res, csrf } = await startLogin(send, ADMIN.email, ADMIN.password);
    expect(res.status, res.text()).toBe(200);
    const [otp] = (await hook.waitForRequests(before + 1, 15_000)).slice(before);
    const verify = await send('/api/auth/verify', {
      method: 'POST',
      headers: { 'x-csrf-token': csrf.token, cookie: csrf.cookie },
      body: { challenge_id: res.json().challenge_id, code: otp!.json().code },
    });
    expect(verify.status, verify.text()).toBe(200);
    const session = cookiesOf(verify).aplt_session!;
    return { csrf, cookie: `${csrf.cookie}; ${cookieHeader({ aplt_session: session })}` };
  }

  const validate = (replica: Replica, cookie?: string) =>
    httpRequest(`${replica.url}/api/validate`, {
      host: 'access.localhost',
      headers: {
        ...(cookie ? { cookie } : {}),
        'x-forwarded-method': 'GET',
        'x-forwarded-host': 'acme.localhost',
        'x-forwarded-uri': '/admin/products',
      },
    });

  it('a session made through one access replica works through the other, and its logout ends it on both at once', async () => {
    const a = sendTo(replicas.accessA!.url);
    const b = sendTo(replicas.accessB!.url);
    const { cookie, csrf } = await signIn(a);
    // Both replicas now hold the identity in their caches (ACCESS_CACHE_SECONDS is long).
    expect((await validate(replicas.accessA!, cookie)).status).toBe(200);
    expect((await validate(replicas.accessB!, cookie)).status).toBe(200);
    const me = await b('/api/auth/me', { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.json()).toMatchObject({ email: ADMIN.email });

    const out = await b('/api/auth/logout', {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrf.token },
    });
    expect(out.status).toBe(200);
    // The logout's answer came after the other replica was told: no polling needed.
    expect((await validate(replicas.accessA!, cookie)).status).toBe(401);
    expect((await a('/api/auth/me', { headers: { cookie } })).status).toBe(401);
    expect((await validate(replicas.accessB!, cookie)).status).toBe(401);
  });

  it('a whitelist change through one access replica holds on the other within 1 s', async () => {
    const { cookie, csrf } = await signIn(sendTo(replicas.accessA!.url));
    const anonymous = async () => [
      (await validate(replicas.accessA!)).status,
      (await validate(replicas.accessB!)).status,
    ];
    // Both replicas have loaded the whitelist (kept ACCESS_CACHE_SECONDS = 600 s): loopback is not on it.
    expect(await anonymous()).toEqual([401, 401]);
    const added = await httpRequest(`${replicas.accessA!.url}/api/admin/whitelist`, {
      method: 'POST',
      host: 'access.localhost',
      headers: { cookie, 'x-csrf-token': csrf.token },
      body: { cidr: '127.0.0.1/32', note: 'replicas test' },
    });
    expect(added.status, added.text()).toBe(201);
    // The other replica hears of the change over Redis pub/sub, which is asynchronous: its answer
    // may race the announcement by a moment (seen once in a full test run: [200, 401]).
    expect(await within(1000, anonymous, (s) => s.join() === '200,200')).toEqual([200, 200]);
    const removed = await httpRequest(`${replicas.accessB!.url}/api/admin/whitelist/${added.json().id}`, {
      method: 'DELETE',
      host: 'access.localhost',
      headers: { cookie, 'x-csrf-token': csrf.token },
    });
    expect(removed.status, removed.text()).toBe(200);
    expect(await within(1000, anonymous, (s) => s.join() === '401,401')).toEqual([401, 401]);
  });

  it('a license change through one access replica reaches both catalog replicas within 1 s', async () => {
    const { cookie, csrf } = await signIn(sendTo(replicas.accessB!.url));
    const products = (r: Replica) =>
      httpRequest(`${r.url}/store/aplt/products`, { headers: viaProxy('acme.localhost') }).then(
        (res: HttpResponse) => res.status,
      );
    const setProducts = async (enabled: boolean) => {
      const res = await httpRequest(`${replicas.accessB!.url}/api/license/acme`, {
        method: 'PUT',
        host: 'access.localhost',
        headers: { cookie, 'x-csrf-token': csrf.token },
        body: { feature: 'products', enabled },
      });
      expect(res.status, res.text()).toBe(200);
    };
    await setProducts(true);
    for (const r of [replicas.catalogA!, replicas.catalogB!])
      await within(
        1000,
        () => products(r),
        (s) => s === 200,
      );

    await setProducts(false);
    // Deadline from the answer of the change: both replicas refuse within a second.
    const deadline = Date.now() + 1000;
    for (const r of [replicas.catalogA!, replicas.catalogB!])
      await within(
        Math.max(0, deadline - Date.now()),
        () => products(r),
        (s) => s === 403,
      );

    await setProducts(true);
    for (const r of [replicas.catalogA!, replicas.catalogB!])
      await within(
        1000,
        () => products(r),
        (s) => s === 200,
      );
  });

  it("a catalog change announced by a worker drops that tenant's cached store pages in both catalog replicas", async () => {
    const categories = (r: Replica, host = 'acme.localhost') =>
      httpRequest(`${r.url}/store/aplt/categories`, { headers: viaProxy(host) }).then((res) =>
        (res.json().categories as Array<{ code: string }>).map((c) => c.code),
      );
    const both = async (host?: string) => [
      await categories(replicas.catalogA!, host),
      await categories(replicas.catalogB!, host),
    ];
    expect(await both()).toEqual([[], []]);
    expect(await both('beta.localhost')).toEqual([[], []]);
    // What a connector run or tenant update writes, straight into the tenants' databases.
    for (const id of ['acme', 'beta'])
      await sql`INSERT INTO aplt_categories (code, slug, name_nl, name_en, name_de, sort_order)
        VALUES ('writing', 'schrijfwaren', 'Schrijfwaren', 'Writing', 'Schreibwaren', 1)`.execute(
        fleet.tenantDbs.get(id)!.aplt.db,
      );
    // Kept for CATALOG_STORE_CACHE_SECONDS (600 s): both replicas still answer from memory.
    expect(await both()).toEqual([[], []]);
    // The worker's announcement after a job (workers.ts) names acme only.
    await storeChangedPublisher(redis.redis, redis.prefix)('acme');
    await within(
      1000,
      () => both(),
      (v) => v.every((codes) => codes.includes('writing')),
    );
    expect(await both('beta.localhost')).toEqual([[], []]);
  });

  const login = (r: Replica, host: string, email: string, password: string) =>
    httpRequest(`${r.url}/auth/user/emailpass`, {
      method: 'POST',
      headers: viaProxy(host),
      body: { email, password },
    });

  it('a lockout counted on one auth replica holds on the other', async () => {
    for (let i = 0; i < 4; i++) {
      const r = i % 2 === 0 ? replicas.authA! : replicas.authB!;
      expect((await login(r, 'acme.localhost', demoAdmin.email, 'Wrong-Password-1!')).status).toBe(401);
    }
    // Four failures, two on each replica: the right password is refused on both.
    for (const r of [replicas.authA!, replicas.authB!]) {
      const locked = await login(r, 'acme.localhost', demoAdmin.email, demoAdmin.password);
      expect(locked.status, locked.text()).toBe(429);
      expect(locked.json().message).toMatch(/failed sign-in attempts for this account/);
    }
  });

  it('the login rate limit counts requests to both auth replicas together', async () => {
    // LOGIN_RATE_MAX=6 per host and client: three through each replica use it up (each with
    // another unknown e-mail, so no account lockout is involved).
    for (let i = 0; i < 6; i++) {
      const r = i % 2 === 0 ? replicas.authA! : replicas.authB!;
      const res = await login(r, 'beta.localhost', `nobody-${i}@example.com`, 'Wrong-Password-1!');
      expect(res.status, res.text()).toBe(401);
    }
    for (const r of [replicas.authA!, replicas.authB!]) {
      const limited = await login(r, 'beta.localhost', 'nobody-x@example.com', 'Wrong-Password-1!');
      expect(limited.status).toBe(429);
      expect(limited.json().message).toMatch(/Too many attempts/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    }
  });
});
