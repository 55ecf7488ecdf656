import { randomBytes } from 'node:crypto';
import type { CommerceDatabase, Kysely, TenantDatabases, TenantRegistry } from '@aplt/db';
import { newId, sql } from '@aplt/db';
import type { ReceivedMail, SmtpSink, TestFleet, TestRedis } from '@aplt/testing';
import { testSecrets } from '@aplt/testing';
import { seedAdminUsers } from '../../../deploy/fleet/seeds/admin-users';
import { seedEmailpassIdentity } from '../../../deploy/fleet/seeds/emailpass-identity';
import type { SeedContext } from '../../../deploy/fleet/seeds/index';
import { loadConfig } from '../src/config';

export const secrets = testSecrets();
/** The SMTP sink accepts any password; a random one proves ours is the one sent. */
export const MAIL_PASSWORD = randomBytes(16).toString('hex');

/** Auth config pointing at the test's Redis prefix and SMTP sink (self-signed STARTTLS allowed). */
export function testConfig(
  redis: TestRedis,
  sink: Pick<SmtpSink, 'port'>,
  extra: Record<string, string> = {},
) {
  return loadConfig({
    LOG_LEVEL: 'silent',
    JWT_SECRET: secrets.JWT_SECRET,
    ACCESS_ASSERTION_PUBLIC_KEY: secrets.ACCESS_ASSERTION_PUBLIC_KEY,
    AUTH_TOTP_KEY: secrets.AUTH_TOTP_KEY,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(sink.port),
    MAIL_PASSWORD,
    MAIL_FROM_NAME: 'Acme Accounts',
    MAIL_FROM_ADDRESS: 'accounts@acme.localhost',
    SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
    ...extra,
  });
}

/** Public URLs as the demo seed registers them; a port no test request uses, to tell them apart. */
export const PUBLIC_PORT = 9443;
export const adminUrlOf = (id: string) => `http://${id}.localhost:${PUBLIC_PORT}`;
export const storeUrlOf = (id: string) => `http://shop.${id}.localhost:${PUBLIC_PORT}`;

/** Registers every tenant's public admin and storefront URL (links in e-mails come from these). */
export async function registerPublicUrls(fleet: TestFleet, except: string[] = []): Promise<void> {
  for (const t of await fleet.registry.list()) {
    if (except.includes(t.id)) continue;
    await fleet.registry.add({ ...t, adminBaseUrl: adminUrlOf(t.id), storeBaseUrl: storeUrlOf(t.id) });
  }
}

/** The demo seed's admin (same e-mail in every tenant, each with its own user). */
export async function seedDemoAdmins(registry: TenantRegistry, databases: TenantDatabases): Promise<void> {
  await seedAdminUsers({ registry, databases, log: () => {} } as unknown as SeedContext);
}

/** A storefront customer with a verified e-mail in every tenant of the registry. */
export async function seedVerifiedCustomer(
  registry: TenantRegistry,
  databases: TenantDatabases,
  email: string,
  password: string,
): Promise<void> {
  const ctx = { registry, databases, log: () => {} } as unknown as SeedContext;
  await seedEmailpassIdentity(ctx, email, password, async (trx) => {
    const customerId = newId('cus');
    await trx
      .insertInto('customer')
      .values({
        id: customerId,
        email,
        has_account: true,
        metadata: sql`jsonb_build_object('email_verified_at', now())`,
      })
      .execute();
    return { customer_id: customerId };
  });
}

export function linkIn(mail: ReceivedMail, pattern: RegExp): string {
  const text = mail.parsed.text ?? '';
  const m = text.match(pattern);
  if (!m) throw new Error(`no link matching ${pattern} in: ${text}`);
  return m[0];
}

export async function storedHash(db: Kysely<CommerceDatabase>, email: string): Promise<string> {
  const row = await db
    .selectFrom('provider_identity')
    .select(sql<string>`provider_metadata->>'password'`.as('hash'))
    .where('entity_id', '=', email)
    .executeTakeFirstOrThrow();
  return row.hash;
}

/** The JWT's payload, unverified (what a client could read). */
export const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

/** Polls `probe` until it returns a value (no fixed sleeps); fails after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
