import type { Kysely, TenantDatabases, TenantRegistry } from '@aplt/db';
import { sql } from '@aplt/db';
import type { ReceivedMail, SmtpSink, TestRedis } from '@aplt/testing';
import { seedAdminUsers } from '../../../deploy/fleet/seeds/admin-users';
import type { SeedContext } from '../../../deploy/fleet/seeds/index';
import { loadConfig } from '../src/config';

export const JWT_SECRET = 'auth-test-secret';
export const MAIL_PASSWORD = 'mail-secret-587';

/** Auth config pointing at the test's Redis prefix and SMTP sink (self-signed STARTTLS allowed). */
export function testConfig(redis: TestRedis, sink: SmtpSink, extra: Record<string, string> = {}) {
  return loadConfig({
    LOG_LEVEL: 'silent',
    JWT_SECRET,
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

/** The demo seed's admin (same e-mail in every tenant, each with its own user). */
export async function seedDemoAdmins(registry: TenantRegistry, databases: TenantDatabases): Promise<void> {
  await seedAdminUsers({ registry, databases, log: () => {} } as unknown as SeedContext);
}

export function linkIn(mail: ReceivedMail, pattern: RegExp): string {
  const text = mail.parsed.text ?? '';
  const m = text.match(pattern);
  if (!m) throw new Error(`no link matching ${pattern} in: ${text}`);
  return m[0];
}

export async function storedHash(db: Kysely<any>, email: string): Promise<string> {
  const row = await db
    .selectFrom('provider_identity')
    .select(sql<string>`provider_metadata->>'password'`.as('hash'))
    .where('entity_id', '=', email)
    .executeTakeFirstOrThrow();
  return row.hash;
}
