import { type CommerceDatabase, newId, sql, type Transaction } from '@aplt/db';
import { hashPassword } from '@aplt/passwords';
import type { SeedContext } from './index';

/**
 * Gives every tenant one emailpass login in Medusa v2's shape: the actor row made by `createActor`
 * (which returns the app_metadata link, `{user_id}` or `{customer_id}`), an auth_identity holding
 * that link and a provider_identity with the scrypt-kdf hash. A tenant that already has the
 * identity keeps it, password included. Returns how many were created.
 */
export async function seedEmailpassIdentity(
  ctx: SeedContext,
  email: string,
  password: string,
  createActor: (trx: Transaction<CommerceDatabase>) => Promise<Record<string, string>>,
): Promise<number> {
  const hash = await hashPassword(password);
  let created = 0;
  for (const tenant of await ctx.registry.list()) {
    await ctx.databases
      .commerce(tenant)
      .transaction()
      .execute(async (trx) => {
        const existing = await trx
          .selectFrom('provider_identity')
          .select('id')
          .where('entity_id', '=', email)
          .where('provider', '=', 'emailpass')
          .executeTakeFirst();
        if (existing) return;
        const appMetadata = await createActor(trx);
        const authId = newId('authid');
        await trx
          .insertInto('auth_identity')
          .values({ id: authId, app_metadata: sql`${JSON.stringify(appMetadata)}::jsonb` })
          .execute();
        await trx
          .insertInto('provider_identity')
          .values({
            id: newId(),
            entity_id: email,
            provider: 'emailpass',
            auth_identity_id: authId,
            provider_metadata: sql`${JSON.stringify({ password: hash })}::jsonb`,
          })
          .execute();
        created++;
      });
  }
  return created;
}
