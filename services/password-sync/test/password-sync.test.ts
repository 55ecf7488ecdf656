import { type CommerceDatabase, dropPgDatabase, ensurePgDatabase, type Kysely, newId, sql } from '@aplt/db';
import { signActorToken, tenantJwtSecret } from '@aplt/http';
import { allFeaturesClient } from '@aplt/licensing';
import { hashPassword } from '@aplt/passwords';
import { QueueClient } from '@aplt/queue';
import {
  createTestFleet,
  createTestPgDatabase,
  createTestRedis,
  templateName,
  testServers,
  type TestFleet,
  type TestRedis,
  testSecrets,
  uniqueName,
  viaProxy,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { RunStateStore } from '../src/run-state.repository';
import { type PasswordSyncWorker, startPasswordSyncWorker } from '../src/worker';

const EMAIL = 'admin@aplt.localhost';
const secrets = testSecrets();
/** Each tenant's auth identity of the admin (each tenant has its own). */
const authIds = new Map<string, string>();

async function seedIdentity(db: Kysely<CommerceDatabase>, userId: string, hash: string): Promise<void> {
  const authId = newId('authid');
  authIds.set(userId.replace(/^user_/, ''), authId);
  await db.insertInto('user').values({ id: userId, email: EMAIL }).execute();
  await db
    .insertInto('auth_identity')
    .values({ id: authId, app_metadata: sql`${JSON.stringify({ user_id: userId })}::jsonb` })
    .execute();
  await db
    .insertInto('provider_identity')
    .values({
      id: newId(),
      entity_id: EMAIL,
      provider: 'emailpass',
      auth_identity_id: authId,
      provider_metadata: sql`${JSON.stringify({ password: hash })}::jsonb`,
    })
    .execute();
}

async function identityRow(db: Kysely<CommerceDatabase>) {
  return db
    .selectFrom('provider_identity as p')
    .innerJoin('auth_identity as a', 'a.id', 'p.auth_identity_id')
    .select([
      sql<string>`p.provider_metadata->>'password'`.as('hash'),
      sql<string>`a.app_metadata->>'user_id'`.as('userId'),
    ])
    .where('p.entity_id', '=', EMAIL)
    .executeTakeFirstOrThrow();
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('password sync across 11 tenant databases, one unreachable', () => {
  const ids = Array.from({ length: 10 }, (_, i) => `t${String(i + 1).padStart(2, '0')}`);
  const lateDb = uniqueName('c_late');
  const lines: string[] = [];
  const log = {
    info: (_o: unknown, msg?: string) => void lines.push(`info ${msg ?? ''}`),
    warn: (_o: unknown, msg?: string) => void lines.push(`warn ${msg ?? ''}`),
    error: (_o: unknown, msg?: string) => void lines.push(`error ${msg ?? ''}`),
  };
  let fleet: TestFleet;
  const commerceOf = (id: string): Kysely<CommerceDatabase> => fleet.tenantDbs.get(id)!.commerce.db;
  let redis: TestRedis;
  let worker: PasswordSyncWorker;
  let lateApltName: string;
  let oldHash: string;
  let newHash: string;

  beforeAll(async () => {
    fleet = await createTestFleet(ids.map((id) => ({ id })));
    // The 11th tenant names a database that does not exist yet: unreachable until created.
    const lateAplt = await createTestPgDatabase('aplt', 'a_late');
    lateApltName = lateAplt.name;
    await lateAplt.db.destroy();
    await fleet.registry.add({
      id: 't11',
      kind: 'tenant',
      name: 't11',
      hosts: ['t11.localhost'],
      commerceDb: { database: lateDb },
      apltDb: { database: lateApltName },
    });
    [oldHash, newHash] = await Promise.all([hashPassword('Old-Password-1'), hashPassword('New-Password-2')]);
    for (const id of ids) await seedIdentity(commerceOf(id), `user_${id}`, oldHash);
    redis = await createTestRedis();
    worker = startPasswordSyncWorker({
      registry: fleet.registry,
      databases: fleet.databases,
      redisUrl: redis.url,
      prefix: redis.prefix,
      runTtlSeconds: 3600,
      concurrency: 4,
      log,
    });
  });

  afterAll(async () => {
    await worker?.close();
    await fleet?.cleanup();
    const { pg } = testServers();
    await dropPgDatabase(pg, lateDb).catch(() => {});
    await dropPgDatabase(pg, lateApltName).catch(() => {});
    await redis?.cleanup();
  });

  it('updates the 10 reachable databases, reports 10/1, and the retry brings the 11th in line', async () => {
    // The auth service has just written the new hash in t01 and queued the run.
    await commerceOf('t01')
      .updateTable('provider_identity')
      .set({ provider_metadata: sql`${JSON.stringify({ password: newHash })}::jsonb` })
      .where('entity_id', '=', EMAIL)
      .execute();
    // t10's password was changed later (a crossing reset elsewhere): the newest change must win.
    const keep = await hashPassword('Even-Newer-Password-3');
    await commerceOf('t10')
      .updateTable('provider_identity')
      .set({
        provider_metadata: sql`jsonb_build_object('password', ${keep}::text, 'password_changed_at', now() + interval '1 minute')`,
      })
      .where('entity_id', '=', EMAIL)
      .execute();
    // Before the run: admin tokens in two targets, and an unused reset link in one.
    const app = await buildApp(
      { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient },
      loadConfig({ LOG_LEVEL: 'silent', ...secrets, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix }),
    );
    const tokenOf = (id: string) =>
      signActorToken(
        tenantJwtSecret(secrets.JWT_SECRET, id),
        {
          actor_id: `user_${id}`,
          actor_type: 'user',
          auth_identity_id: authIds.get(id)!,
          app_metadata: { user_id: `user_${id}` },
        },
        60,
      );
    const runsAs = (id: string, token: string, url = '/admin/password-sync/runs') =>
      app.inject({
        method: 'GET',
        url,
        headers: { ...viaProxy(`${id}.localhost`), authorization: `Bearer ${token}` },
      });
    const [before03, before10] = await Promise.all([tokenOf('t03'), tokenOf('t10')]);
    expect((await runsAs('t03', before03)).statusCode).toBe(200);
    expect((await runsAs('t10', before10)).statusCode).toBe(200);
    const t04 = commerceOf('t04');
    await t04
      .insertInto('auth_reset_token')
      .values({
        id: 'pending-link',
        entity_id: EMAIL,
        provider: 'emailpass',
        actor_type: 'user',
        expires_at: sql`now() + interval '15 minutes'`,
      })
      .execute();

    const runId = newId('psync');
    const queue = new QueueClient(redis.redis, redis.prefix);
    await queue.enqueue(
      'password-sync',
      'password-sync.run',
      { sourceTenantId: 't01', entityId: EMAIL, provider: 'emailpass', runId },
      { jobId: runId },
    );
    const runs = new RunStateStore(redis.redis, redis.prefix, 3600);
    const first = await until('first pass', async () => (await runs.get(runId))?.meta.firstPass);
    expect(first).toEqual({ databases: 11, updated: 10, failed: 1, notPresent: 0 });
    expect(lines).toContain(
      'info password sync summary: 10 updated, 1 failed, 0 without this identity, of 11 databases',
    );
    expect(lines.filter((l) => / t\d\d (updated|newer|failed)$/.test(l))).toHaveLength(10);
    expect(lines).toContain('info password sync: t10 newer');
    expect(lines).toContain('warn password sync: t11 failed');

    for (const id of ids) {
      const row = await identityRow(commerceOf(id));
      expect(row.hash).toBe(id === 't10' ? keep : newHash);
      // Each tenant keeps its own user link.
      expect(row.userId).toBe(`user_${id}`);
    }

    // The missing database comes back (with its own identity and old password).
    const { pg } = testServers();
    await ensurePgDatabase(pg, lateDb, templateName('commerce'));
    const late = fleet.databases.commerce<CommerceDatabase>((await fleet.registry.get('t11'))!);
    await seedIdentity(late, 'user_t11', oldHash);

    const state = await until('retry of t11', async () => {
      const s = await runs.get(runId);
      return s?.tenants.t11?.status === 'updated' ? s : undefined;
    });
    expect(state.tenants.t11!.attempts).toBeGreaterThanOrEqual(1);
    const lateRow = await identityRow(late);
    expect(lateRow).toEqual({ hash: newHash, userId: 'user_t11' });

    try {
      // Where the hash was written, earlier sessions are revoked and unused reset links spent;
      // t10 kept its newer password, and its sessions.
      expect((await runsAs('t03', before03)).statusCode).toBe(401);
      expect((await runsAs('t10', before10)).statusCode).toBe(200);
      const link = await t04
        .selectFrom('auth_reset_token')
        .select('used_at')
        .where('id', '=', 'pending-link')
        .executeTakeFirstOrThrow();
      expect(link.used_at).not.toBeNull();

      // The run-state endpoint shows the run as complete to an admin of any tenant.
      const token = await tokenOf('t05');
      const res = await runsAs('t05', token, `/admin/password-sync/runs/${runId}`);
      expect(res.statusCode).toBe(200);
      const run = res.json().run;
      expect(run.status).toBe('completed');
      expect(run.first_pass).toEqual({ databases: 11, updated: 10, failed: 1, notPresent: 0 });
      expect(run.counts).toMatchObject({ databases: 11, updated: 11, failed: 0, retrying: 0 });

      const anonymous = await app.inject({
        method: 'GET',
        url: `/admin/password-sync/runs/${runId}`,
        headers: viaProxy('t05.localhost'),
      });
      expect(anonymous.statusCode).toBe(401);
      expect((await runsAs('t05', token, '/admin/password-sync/runs/psync_nope')).statusCode).toBe(404);
      const list = await runsAs('t05', token);
      expect(list.json().runs.map((r: { id: string }) => r.id)).toEqual([runId]);
      // Without the proxy's assertion the route is not reached at all.
      const direct = await app.inject({
        method: 'GET',
        url: '/admin/password-sync/runs',
        headers: { host: 't05.localhost', authorization: `Bearer ${token}` },
      });
      expect(direct.statusCode).toBe(401);
      // A token of a user deleted since is refused.
      await commerceOf('t05')
        .updateTable('user')
        .set({ deleted_at: sql`now()` })
        .where('id', '=', 'user_t05')
        .execute();
      expect((await runsAs('t05', token)).statusCode).toBe(401);
    } finally {
      await app.close();
      await queue.close();
    }
  });
});
