import { newId } from '@aplt/db';
import { demoAdmin } from './demo-tenants';
import { seedEmailpassIdentity } from './emailpass-identity';
import type { SeedContext } from './index';

/** One admin per tenant with the same e-mail, as in the spec's deployment. */
export async function seedAdminUsers(ctx: SeedContext): Promise<void> {
  const created = await seedEmailpassIdentity(ctx, demoAdmin.email, demoAdmin.password, async (trx) => {
    const userId = newId('user');
    await trx
      .insertInto('user')
      .values({ id: userId, email: demoAdmin.email, first_name: 'Demo', last_name: 'Admin' })
      .execute();
    return { user_id: userId };
  });
  ctx.log(`admin users: ${created} created`);
}
