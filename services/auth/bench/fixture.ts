// Shared set-up of the auth benchmarks (bench/auth-*.ts): a private control DB and tenant commerce
// DBs (one migrated, the others cloned from it), a Redis prefix and the auth app listening. It
// lives here so it resolves the auth service's own dependencies.
import { randomBytes } from 'node:crypto';
import { generateSecrets } from '@aplt/config';
import {
  type CommerceDatabase,
  type ControlDatabase,
  createPgDb,
  dropPgDatabase,
  ensurePgDatabase,
  type Kysely,
  migrateToLatest,
  newId,
  sql,
  TenantDatabases,
  TenantRegistry,
} from '@aplt/db';
import { ASSERTION_HEADER, AssertionSigner } from '@aplt/http';
import { allFeaturesClient } from '@aplt/licensing';
import { hashPassword } from '@aplt/passwords';
import { Redis } from 'ioredis';
import * as scryptModule from 'scrypt-kdf';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { insertResetToken } from '../src/shared/identity.repository';
import { TokenSigner } from '../src/shared/tokens';

export const pg = {
  host: process.env.PG_HOST ?? '127.0.0.1',
  port: Number(process.env.PG_PORT ?? 5432),
  user: process.env.PG_USER ?? 'postgres',
};
export const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const EMAIL = 'admin@bench.localhost';
/** Fresh secrets per run, as the start command makes them (a published value would be refused). */
export const secrets = generateSecrets();
export const JWT_SECRET = secrets.JWT_SECRET;
const signer = new AssertionSigner(secrets.ACCESS_ASSERTION_PRIVATE_KEY);

/** The headers the proxy adds after forward auth; the auth service refuses requests without them. */
export function proxyHeaders(host: string): Record<string, string> {
  const token = signer.assertion(host, () => ({
    sub: 'whitelist',
    host,
    tenant: null,
    reason: 'whitelist',
    roles: [],
  }));
  return { host, [ASSERTION_HEADER]: token };
}

export async function authFixture(tenantCount: number, password: string) {
  const tag = `bench_auth_${randomBytes(3).toString('hex')}`;
  const prefix = `${tag}_r`;
  const names = {
    control: `${tag}_control`,
    commerce: Array.from({ length: tenantCount }, (_, i) => `${tag}_c${i}`),
  };
  await ensurePgDatabase(pg, names.control);
  const control = createPgDb<ControlDatabase>({ ...pg, database: names.control }, { max: 2 });
  await migrateToLatest(control, 'control');
  await ensurePgDatabase(pg, names.commerce[0]!);
  const first = createPgDb<CommerceDatabase>({ ...pg, database: names.commerce[0]! }, { max: 1 });
  await migrateToLatest(first, 'commerce');
  await first.destroy();
  for (const n of names.commerce.slice(1)) await ensurePgDatabase(pg, n, names.commerce[0]);

  const registry = new TenantRegistry(control, 0);
  const databases = new TenantDatabases({ commerce: pg, aplt: pg });
  const hash = await hashPassword(password);
  const ids = names.commerce.map((_, i) => `t${i}`);
  for (const [i, id] of ids.entries()) {
    await registry.add({
      id,
      kind: 'tenant',
      name: id,
      hosts: [`${id}.localhost`],
      commerceDb: { database: names.commerce[i]! },
      apltDb: { database: names.commerce[i]! },
    });
    await seedAdmin(databases.commerce<CommerceDatabase>((await registry.get(id))!), hash);
  }
  const app = await buildApp(
    { registry, databases, licenses: allFeaturesClient },
    loadConfig({
      LOG_LEVEL: 'silent',
      JWT_SECRET,
      ACCESS_ASSERTION_PUBLIC_KEY: secrets.ACCESS_ASSERTION_PUBLIC_KEY,
      AUTH_TOTP_KEY: secrets.AUTH_TOTP_KEY,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      LOGIN_RATE_MAX: '1000000',
    }),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  return {
    ids,
    hash,
    registry,
    databases,
    prefix,
    port,
    app,
    async cleanup() {
      await app.close();
      await databases.close();
      await control.destroy();
      for (const n of [names.control, ...names.commerce]) await dropPgDatabase(pg, n);
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    },
  };
}

async function seedAdmin(db: Kysely<CommerceDatabase>, hash: string): Promise<void> {
  const userId = newId('user');
  const authId = newId('authid');
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

export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** The baseline: scrypt-kdf's own verify of a stored hash, with nothing of ours around it. */
export async function bareVerify(hashBase64: string, password: string): Promise<boolean> {
  const Scrypt = (
    scryptModule as unknown as { default: { verify(k: Uint8Array, p: string): Promise<boolean> } }
  ).default;
  return Scrypt.verify(new Uint8Array(Buffer.from(hashBase64, 'base64')), password);
}

/** A stored, valid reset token for the admin of `tenant`, as the e-mailed link would carry. */
export async function resetTokenFor(
  registry: TenantRegistry,
  databases: TenantDatabases,
  tenantId: string,
): Promise<string> {
  const tenant = (await registry.get(tenantId))!;
  const { token, jti } = await new TokenSigner(JWT_SECRET).resetToken(
    tenant,
    { entity_id: EMAIL, provider: 'emailpass', actor_type: 'user' },
    900,
  );
  await insertResetToken(databases.commerce<CommerceDatabase>(tenant), {
    jti,
    entityId: EMAIL,
    provider: 'emailpass',
    actorType: 'user',
    ttlSeconds: 900,
  });
  return token;
}
