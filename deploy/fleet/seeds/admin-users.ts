import { newId, sql } from '@aplt/db';
import { hashPassword } from '@aplt/passwords';
import { demoAdmin } from './demo-tenants';
import type { SeedContext } from './index';

/**
 * One admin per tenant with the same e-mail, as in the spec's deployment: the Medusa v2 rows
 * (user, auth_identity linked by app_metadata.user_id, emailpass provider_identity holding the
 * scrypt-kdf hash). A tenant that already has the identity keeps its password.
 */
export async function seedAdminUsers(ctx: SeedContext): Promise<void> {
  const hash = await hashPassword(demoAdmin.password);
  let created = 0;
  for (const tenant of await ctx.registry.list()) {
    const db = ctx.databases.commerce(tenant);
    await db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('provider_identity')
        .select('id')
        .where('entity_id', '=', demoAdmin.email)
        .where('provider', '=', 'emailpass')
        .executeTakeFirst();
      if (existing) return;
      const userId = newId('user');
      const authId = newId('authid');
      await trx
        .insertInto('user')
        .values({ id: userId, email: demoAdmin.email, first_name: 'Demo', last_name: 'Admin' })
        .execute();
      await trx
        .insertInto('auth_identity')
        .values({ id: authId, app_metadata: sql`${JSON.stringify({ user_id: userId })}::jsonb` })
        .execute();
      await trx
        .insertInto('provider_identity')
        .values({
          id: newId(),
          entity_id: demoAdmin.email,
          provider: 'emailpass',
          auth_identity_id: authId,
          provider_metadata: sql`${JSON.stringify({ password: hash })}::jsonb`,
        })
        .execute();
      created++;
    });
  }
  ctx.log(`admin users: ${created} created`);
}
