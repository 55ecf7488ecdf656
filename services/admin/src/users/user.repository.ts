import type { Kysely, CommerceDatabase } from '@aplt/db';

/** A live (not deleted) admin user of the tenant's commerce database. */
export const findLiveUser = (commerce: Kysely<CommerceDatabase>, id: string) =>
  commerce
    .selectFrom('user')
    .select(['id', 'email', 'first_name', 'last_name'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
