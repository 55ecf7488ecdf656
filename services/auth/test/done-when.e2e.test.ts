import { allFeaturesClient } from '@aplt/licensing';
import { buildApp as buildSyncApp } from '@aplt/service-password-sync/app';
import { loadConfig as syncConfig } from '@aplt/service-password-sync/config';
import { type PasswordSyncWorker, startPasswordSyncWorker } from '@aplt/service-password-sync/worker';
import { createAccessAppForTest } from '@aplt/service-access/testing';
import {
  createTestFleet,
  createTestRedis,
  type SmtpSink,
  startSmtpSink,
  startTestProxy,
  type TestFleet,
  type TestProxy,
  type TestRedis,
} from '@aplt/testing';
import { type CommerceDatabase, sql } from '@aplt/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAdmin, demoTenants } from '../../../deploy/fleet/seeds/demo-tenants';
import { buildApp } from '../src/app';
import { adminUrlOf, registerPublicUrls, secrets, seedDemoAdmins, testConfig } from './helpers';

const NEW_PASSWORD = 'Synced-Everywhere-2026';

describe('done when: reset on one tenant, the new password works on all 11 through the proxy', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let sink: SmtpSink;
  let proxy: TestProxy;
  let worker: PasswordSyncWorker;
  const host = (id: string) => `${id}.localhost`;

  beforeAll(async () => {
    fleet = await createTestFleet(demoTenants.map((t) => ({ id: t.id, kind: t.kind })));
    await seedDemoAdmins(fleet.registry, fleet.databases);
    await registerPublicUrls(fleet);
    [redis, sink] = await Promise.all([createTestRedis(), startSmtpSink()]);
    const deps = { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient };
    const env = { LOG_LEVEL: 'silent', ...secrets, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix };
    proxy = await startTestProxy({
      access: await createAccessAppForTest(fleet.registry, { ...secrets }),
      auth: await buildApp(deps, testConfig(redis, sink)),
      'password-sync': await buildSyncApp(deps, syncConfig(env)),
    });
    worker = startPasswordSyncWorker({
      registry: fleet.registry,
      databases: fleet.databases,
      redisUrl: redis.url,
      prefix: redis.prefix,
      runTtlSeconds: 3600,
      concurrency: 4,
      log: { info: () => {}, warn: () => {}, error: () => {} },
    });
  });

  afterAll(async () => {
    await worker?.close();
    await proxy?.stop();
    await sink?.close();
    await fleet?.cleanup();
    await redis?.cleanup();
  });

  const login = (id: string, password: string) =>
    proxy.request(host(id), '/auth/user/emailpass', {
      method: 'POST',
      body: { email: demoAdmin.email, password },
    });
  const userIdOf = async (id: string) => {
    const row = await fleet.databases
      .commerce<CommerceDatabase>((await fleet.registry.get(id))!)
      .selectFrom('auth_identity')
      .select(sql<string>`app_metadata->>'user_id'`.as('user_id'))
      .executeTakeFirstOrThrow();
    return row.user_id;
  };
  const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());

  it('logs in twice, resets via the e-mailed link, syncs, and the old password fails everywhere', async () => {
    // Two tenants, same admin e-mail, each resolving to its own user.
    const acme = await login('acme', demoAdmin.password);
    const globex = await login('globex', demoAdmin.password);
    expect(acme.status).toBe(200);
    expect(globex.status).toBe(200);
    expect(claims(acme.json().token).actor_id).toBe(await userIdOf('acme'));
    expect(claims(globex.json().token).actor_id).toBe(await userIdOf('globex'));
    expect(claims(acme.json().token).actor_id).not.toBe(claims(globex.json().token).actor_id);

    // A token of one tenant is refused by another tenant's admin route.
    const crossed = await proxy.request(host('globex'), '/admin/password-sync/runs', {
      headers: { authorization: `Bearer ${acme.json().token}` },
    });
    expect(crossed.status).toBe(401);

    const reset = await proxy.request(host('acme'), '/auth/user/emailpass/reset-password', {
      method: 'POST',
      body: { identifier: demoAdmin.email },
    });
    expect(reset.status).toBe(201);
    const mail = await sink.waitFor((m) => m.envelope.to.includes(demoAdmin.email));
    expect(mail.secure).toBe(true);
    const link = new URL(
      mail.parsed.text!.match(/http:\/\/acme\.localhost\S*\/app\/reset-password\?\S+/)![0],
    );
    expect(link.origin).toBe(adminUrlOf('acme'));
    expect(link.searchParams.get('email')).toBe(demoAdmin.email);

    const update = await proxy.request(host('acme'), '/auth/user/emailpass/update', {
      method: 'POST',
      headers: { authorization: `Bearer ${link.searchParams.get('token')}` },
      body: { password: NEW_PASSWORD },
    });
    expect(update.status).toBe(200);
    expect(update.json()).toEqual({ success: true });
    const runId = String(update.headers['x-password-sync-run']);

    // The reset revoked every earlier token of the identity on acme; a fresh login works at once.
    const runsOf = (id: string, token: string) =>
      proxy.request(host(id), '/admin/password-sync/runs', { headers: { authorization: `Bearer ${token}` } });
    expect((await runsOf('acme', acme.json().token)).status).toBe(401);
    const fresh = await login('acme', NEW_PASSWORD);
    expect(fresh.status).toBe(200);
    const adminToken = fresh.json().token as string;
    expect((await runsOf('acme', adminToken)).status).toBe(200);

    // The run state, read through the proxy by an admin, until every database holds the hash.
    let run: { status: string; counts: { databases: number; updated: number; failed: number } } | undefined;
    for (let i = 0; i < 400 && run?.status !== 'completed'; i++) {
      const res = await proxy.request(host('acme'), `/admin/password-sync/runs/${runId}`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect([200, 404]).toContain(res.status);
      if (res.status === 200) run = res.json().run;
      if (run?.status !== 'completed') await new Promise((r) => setTimeout(r, 25));
    }
    expect(run).toMatchObject({ status: 'completed', counts: { databases: 11, updated: 11, failed: 0 } });
    // The sync revoked globex's earlier token too (it came from the old password).
    expect((await runsOf('globex', globex.json().token)).status).toBe(401);

    for (const t of demoTenants) {
      const fresh = await login(t.id, NEW_PASSWORD);
      expect(fresh.status, `new password on ${t.id}`).toBe(200);
      expect(claims(fresh.json().token).actor_id).toBe(await userIdOf(t.id));
      const old = await login(t.id, demoAdmin.password);
      expect(old.status, `old password on ${t.id}`).toBe(401);
      expect(old.json()).toEqual({ type: 'unauthorized', message: 'Invalid email or password' });
    }
  });
});
