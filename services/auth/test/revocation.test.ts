import { type CommerceDatabase, sql } from '@aplt/db';
import { allFeaturesClient } from '@aplt/licensing';
import { buildApp as buildSyncApp } from '@aplt/service-password-sync/app';
import { loadConfig as syncConfig } from '@aplt/service-password-sync/config';
import { type PasswordSyncWorker, startPasswordSyncWorker } from '@aplt/service-password-sync/worker';
import {
  createTestFleet,
  createTestRedis,
  type ReceivedMail,
  type SmtpSink,
  startSmtpSink,
  type TestFleet,
  type TestRedis,
  viaProxy,
} from '@aplt/testing';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { demoAdmin } from '../../../deploy/fleet/seeds/demo-tenants';
import { buildApp } from '../src/app';
import {
  adminUrlOf,
  claimsOf,
  registerPublicUrls,
  secrets,
  seedDemoAdmins,
  seedVerifiedCustomer,
  storeUrlOf,
  testConfig,
  until,
} from './helpers';

const CUSTOMER = 'carla@customer.localhost';
const CUSTOMER_PASSWORD = 'Carla-Password-2026';
const ADMIN_PASSWORD = 'Revoked-All-2026';
const OTTO = 'otto@customer.localhost';
const OTTO_PASSWORD = 'Otto-Password-2026';

type App = Awaited<ReturnType<typeof buildApp>>;
type Inject = InjectOptions & { headers?: Record<string, string> };

/**
 * Issue 13, item 7 and item 1: a completed password reset revokes every earlier token and cookie
 * session of the identity (here and, through the password sync, in every other tenant), a new
 * reset link voids the earlier ones, links come from the tenant registry, and tokens of deleted
 * users or customers are refused.
 */
describe('password reset revokes, reset links are single and registry-based, deleted actors are refused', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let sink: SmtpSink;
  let auth: App;
  let sync: Awaited<ReturnType<typeof buildSyncApp>>;
  let worker: PasswordSyncWorker;

  const call = (
    app: { inject(opts: InjectOptions): Promise<LightMyRequestResponse> },
    host: string,
    opts: Inject,
  ) => app.inject({ ...opts, headers: { ...viaProxy(host), ...(opts.headers ?? {}) } });
  const post = (host: string, url: string, payload?: object, headers: Record<string, string> = {}) =>
    call(auth, host, { method: 'POST', url, payload, headers });
  const adminLogin = (host: string, password: string) =>
    post(host, '/auth/user/emailpass', { email: demoAdmin.email, password });
  const customerLogin = (host: string, password: string) =>
    post(host, '/auth/customer/emailpass', { email: CUSTOMER, password });
  /** An admin route of another service (password sync), behind requireActor('user'). */
  const adminRoute = (host: string, headers: Record<string, string>) =>
    call(sync, host, { method: 'GET', url: '/admin/password-sync/runs', headers });
  /** The auth service's own customer route, behind requireActor('customer'). */
  const customerRoute = (host: string, headers: Record<string, string>) =>
    call(auth, host, { method: 'GET', url: '/store/customer/2fa', headers });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  const mailsTo = (to: string, subject: string) =>
    sink.messages.filter((m) => m.envelope.to.includes(to) && !!m.parsed.subject?.includes(subject));
  /** Asks for a reset and returns the link of the e-mail it caused. */
  async function resetLink(host: string, actor: 'user' | 'customer', email: string, headers = {}) {
    const seen = mailsTo(email, 'reset your password').length;
    // The storefront says its page's language; staff's e-mail is English whatever is sent.
    const res = await post(
      host,
      `/auth/${actor}/emailpass/reset-password`,
      { identifier: email, lang: 'en' },
      headers,
    );
    expect(res.statusCode).toBe(201);
    const mail: ReceivedMail = await until(
      'reset e-mail',
      async () => mailsTo(email, 'reset your password')[seen],
    );
    return new URL(mail.parsed.text!.match(/http\S+\/reset-password\?\S+/)![0]);
  }
  const update = (host: string, actor: 'user' | 'customer', token: string, password: string) =>
    post(host, `/auth/${actor}/emailpass/update`, { password }, bearer(token));

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'beta' }, { id: 'gamma' }, { id: 'delta' }]);
    await seedDemoAdmins(fleet.registry, fleet.databases);
    await seedVerifiedCustomer(fleet.registry, fleet.databases, CUSTOMER, CUSTOMER_PASSWORD);
    await seedVerifiedCustomer(fleet.registry, fleet.databases, OTTO, OTTO_PASSWORD);
    // delta has no public URLs registered: its links must not be built at all.
    await registerPublicUrls(fleet, ['delta']);
    [redis, sink] = await Promise.all([createTestRedis(), startSmtpSink()]);
    const deps = { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient };
    auth = await buildApp(deps, testConfig(redis, sink, { LOGIN_RATE_MAX: '1000' }));
    sync = await buildSyncApp(
      deps,
      syncConfig({ LOG_LEVEL: 'silent', ...secrets, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix }),
    );
    worker = startPasswordSyncWorker({
      registry: fleet.registry,
      databases: fleet.databases,
      redisUrl: redis.url,
      prefix: redis.prefix,
      runTtlSeconds: 3600,
      concurrency: 4,
      log: { info: () => {}, warn: () => {}, error: () => {} },
    });
    await Promise.all([auth.ready(), sync.ready()]);
  });

  afterAll(async () => {
    await worker?.close();
    await auth?.close();
    await sync?.close();
    await sink?.close();
    await fleet?.cleanup();
    await redis?.cleanup();
  });

  it('an admin reset revokes earlier tokens and cookie sessions here and, by the sync, in every tenant', async () => {
    const before = (await adminLogin('acme.localhost', demoAdmin.password)).json().token as string;
    const elsewhere = (await adminLogin('beta.localhost', demoAdmin.password)).json().token as string;
    const session = await post('acme.localhost', '/auth/session', undefined, bearer(before));
    expect(session.statusCode).toBe(200);
    const cookie = { cookie: String(session.headers['set-cookie']).split(';')[0]! };
    expect((await adminRoute('acme.localhost', bearer(before))).statusCode).toBe(200);
    expect((await adminRoute('acme.localhost', cookie)).statusCode).toBe(200);
    expect((await adminRoute('beta.localhost', bearer(elsewhere))).statusCode).toBe(200);
    // A reset link of beta, still unused when the password changes on acme.
    const betaLink = await resetLink('beta.localhost', 'user', demoAdmin.email);

    const link = await resetLink('acme.localhost', 'user', demoAdmin.email);
    const done = await update('acme.localhost', 'user', link.searchParams.get('token')!, ADMIN_PASSWORD);
    expect(done.statusCode).toBe(200);
    // A token issued right after the reset, very likely in the same second, works.
    const after = (await adminLogin('acme.localhost', ADMIN_PASSWORD)).json().token as string;
    expect((await adminRoute('acme.localhost', bearer(after))).statusCode).toBe(200);

    // The earlier token is refused everywhere it was accepted: routes, the cookie session it
    // made, a new cookie session, a refresh.
    expect((await adminRoute('acme.localhost', bearer(before))).statusCode).toBe(401);
    expect((await adminRoute('acme.localhost', cookie)).statusCode).toBe(401);
    expect((await post('acme.localhost', '/auth/session', undefined, bearer(before))).statusCode).toBe(401);
    expect((await post('acme.localhost', '/auth/token/refresh', undefined, bearer(before))).statusCode).toBe(
      401,
    );
    expect((await post('acme.localhost', '/auth/token/refresh', undefined, bearer(after))).statusCode).toBe(
      200,
    );

    // The password sync copies the hash into beta, revokes there and spends beta's reset links.
    const runId = String(done.headers['x-password-sync-run']);
    await until('sync run', async () => {
      const res = await adminRoute('acme.localhost', bearer(after));
      const run = (res.json().runs as Array<{ id: string; status: string }>).find((r) => r.id === runId);
      return run?.status === 'completed' ? run : undefined;
    });
    expect((await adminRoute('beta.localhost', bearer(elsewhere))).statusCode).toBe(401);
    expect(
      (await update('beta.localhost', 'user', betaLink.searchParams.get('token')!, 'Beta-Late-2026'))
        .statusCode,
    ).toBe(401);
    const fresh = await adminLogin('beta.localhost', ADMIN_PASSWORD);
    expect(fresh.statusCode).toBe(200);
    expect((await adminRoute('beta.localhost', bearer(fresh.json().token))).statusCode).toBe(200);
  });

  it('a customer reset revokes earlier customer tokens and cookies', async () => {
    const first = await customerLogin('acme.localhost', CUSTOMER_PASSWORD);
    expect(first.statusCode).toBe(200);
    const token = first.json().token as string;
    const cookie = { cookie: `_commerce_jwt=${token}` };
    expect((await customerRoute('acme.localhost', cookie)).statusCode).toBe(200);

    const link = await resetLink('acme.localhost', 'customer', CUSTOMER);
    expect(link.origin).toBe(storeUrlOf('acme'));
    expect(
      (await update('acme.localhost', 'customer', link.searchParams.get('token')!, 'Carla-New-2026x'))
        .statusCode,
    ).toBe(200);
    expect((await customerRoute('acme.localhost', cookie)).statusCode).toBe(401);
    expect((await customerRoute('acme.localhost', bearer(token))).statusCode).toBe(401);
    const again = await customerLogin('acme.localhost', 'Carla-New-2026x');
    expect(again.statusCode).toBe(200);
    expect((await customerRoute('acme.localhost', bearer(again.json().token))).statusCode).toBe(200);
    // Only the admin path queues a password sync; the customer's password stays in its tenant.
    expect((await customerLogin('beta.localhost', CUSTOMER_PASSWORD)).statusCode).toBe(200);
  });

  it('a pending second-factor login made before a reset cannot be completed after it', async () => {
    const login = () =>
      post('acme.localhost', '/auth/customer/emailpass', {
        email: OTTO,
        password: OTTO_PASSWORD,
        lang: 'en',
      });
    const session = (await login()).json().token as string;
    expect(
      (await post('acme.localhost', '/store/customer/2fa', { enabled: true }, bearer(session))).statusCode,
    ).toBe(200);
    const seen = mailsTo(OTTO, 'login code').length;
    const pending = await login();
    expect(pending.json()).toMatchObject({ otp_required: true });
    const mail = await until('login code', async () => mailsTo(OTTO, 'login code')[seen]);
    const code = mail.parsed.text!.match(/\b(\d{6})\b/)![1]!;

    const link = await resetLink('acme.localhost', 'customer', OTTO);
    expect(
      (await update('acme.localhost', 'customer', link.searchParams.get('token')!, 'Otto-Changed-2026'))
        .statusCode,
    ).toBe(200);
    // The code is right and unused, but the password step it completes used the old password.
    const late = await post(
      'acme.localhost',
      '/store/auth/otp',
      { email: OTTO, code },
      bearer(pending.json().otp_token),
    );
    expect(late.statusCode).toBe(401);
    expect(late.json()).toEqual({ type: 'unauthorized', message: 'Login session expired; sign in again' });
  });

  it('a newer reset link voids every earlier unused one, and a used link never works again', async () => {
    const older = await resetLink('beta.localhost', 'customer', CUSTOMER);
    const newer = await resetLink('beta.localhost', 'customer', CUSTOMER);
    expect(older.searchParams.get('token')).not.toBe(newer.searchParams.get('token'));
    const stale = await update(
      'beta.localhost',
      'customer',
      older.searchParams.get('token')!,
      'Older-Link-2026',
    );
    expect(stale.statusCode).toBe(401);
    expect(stale.json()).toEqual({ type: 'unauthorized', message: 'Invalid token' });
    expect(
      (await update('beta.localhost', 'customer', newer.searchParams.get('token')!, 'Newer-Link-2026'))
        .statusCode,
    ).toBe(200);
    expect(
      (await update('beta.localhost', 'customer', newer.searchParams.get('token')!, 'Newer-Again-2026'))
        .statusCode,
    ).toBe(401);
    expect((await customerLogin('beta.localhost', 'Newer-Link-2026')).statusCode).toBe(200);
    expect((await customerLogin('beta.localhost', 'Older-Link-2026')).statusCode).toBe(401);
  });

  it("builds links from the registry's public URL, never from the request's Host", async () => {
    // The Host an attacker sends (a port of their choosing) ends up nowhere in the e-mail.
    const link = await resetLink('acme.localhost:31337', 'user', demoAdmin.email);
    expect(link.origin).toBe(adminUrlOf('acme'));
    expect(link.pathname).toBe('/app/reset-password');
    expect(link.searchParams.get('email')).toBe(demoAdmin.email);
    const mail = mailsTo(demoAdmin.email, 'reset your password').at(-1)!;
    expect(mail.parsed.text).not.toContain('31337');
    expect(mail.parsed.html).not.toContain('31337');
  });

  it('a tenant without a registered public URL sends no link at all and says so in the log', async () => {
    const errors = vi.spyOn(auth.log, 'error');
    try {
      for (const actor of ['user', 'customer'] as const) {
        const email = actor === 'user' ? demoAdmin.email : CUSTOMER;
        const res = await post('delta.localhost', `/auth/${actor}/emailpass/reset-password`, {
          identifier: email,
        });
        // The same answer as ever (it reveals nothing about the account), but nothing was made.
        expect(res.statusCode).toBe(201);
      }
      const lines = errors.mock.calls.map((c) => String(c[1] ?? c[0]));
      expect(lines).toContain(
        'password reset refused: tenant delta has no public URL in tenants.admin_base_url; no e-mail sent',
      );
      expect(lines).toContain(
        'password reset refused: tenant delta has no public URL in tenants.store_base_url; no e-mail sent',
      );
    } finally {
      errors.mockRestore();
    }
    const delta = fleet.databases.commerce<CommerceDatabase>((await fleet.registry.get('delta'))!);
    const tokens = await delta
      .selectFrom('auth_reset_token')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    expect(tokens.n).toBe(0);
  });

  it('refuses the tokens of a deleted or soft-deleted user or customer in every service', async () => {
    const admin = (await adminLogin('gamma.localhost', ADMIN_PASSWORD)).json().token as string;
    const customer = (await customerLogin('gamma.localhost', CUSTOMER_PASSWORD)).json().token as string;
    expect((await adminRoute('gamma.localhost', bearer(admin))).statusCode).toBe(200);
    expect((await customerRoute('gamma.localhost', bearer(customer))).statusCode).toBe(200);
    const gamma = fleet.databases.commerce<CommerceDatabase>((await fleet.registry.get('gamma'))!);

    // Soft delete (Medusa sets deleted_at).
    await gamma
      .updateTable('user')
      .set({ deleted_at: sql`now()` })
      .where('id', '=', claimsOf(admin).actor_id as string)
      .execute();
    expect((await adminRoute('gamma.localhost', bearer(admin))).statusCode).toBe(401);
    expect((await post('gamma.localhost', '/auth/session', undefined, bearer(admin))).statusCode).toBe(401);
    expect((await post('gamma.localhost', '/auth/token/refresh', undefined, bearer(admin))).statusCode).toBe(
      401,
    );
    await gamma
      .updateTable('user')
      .set({ deleted_at: null })
      .where('id', '=', claimsOf(admin).actor_id as string)
      .execute();
    expect((await adminRoute('gamma.localhost', bearer(admin))).statusCode).toBe(200);

    // Hard delete of the customer row.
    await gamma
      .deleteFrom('customer')
      .where('id', '=', claimsOf(customer).actor_id as string)
      .execute();
    const gone = await customerRoute('gamma.localhost', bearer(customer));
    expect(gone.statusCode).toBe(401);
    expect(gone.json()).toEqual({ type: 'unauthorized', message: 'Unauthorized' });
    expect(
      (await post('gamma.localhost', '/auth/token/refresh', undefined, bearer(customer))).statusCode,
    ).toBe(401);

    // A deleted identity takes its tokens with it.
    await gamma
      .updateTable('auth_identity')
      .set({ deleted_at: sql`now()` })
      .where('id', '=', claimsOf(admin).auth_identity_id as string)
      .execute();
    expect((await adminRoute('gamma.localhost', bearer(admin))).statusCode).toBe(401);
  });
});
