import { sql } from '@aplt/db';
import { hashPortalPassword } from '@aplt/service-portal/password-hash';
import type { SeedContext } from './index';

export const demoPortalUsers = [
  {
    email: 'portal-admin@aplt.localhost',
    name: 'Portal Admin',
    role: 'admin',
    password: 'Demo-Portal-Admin-2026!',
  },
  {
    email: 'developer@aplt.localhost',
    name: 'Demo Developer',
    role: 'developer',
    password: 'Demo-Developer-2026!',
  },
  { email: 'client@acme.localhost', name: 'Acme Client', role: 'client', password: 'Demo-Client-2026!' },
] as const;

/**
 * Customer portal demo: an admin, a developer and a client (bcrypt hashes, as the portal checks
 * them) and one open bug ticket of the client for tenant acme, ready for "create dev project".
 * Existing users keep their passwords; the ticket is made once.
 */
export async function seedPortal(ctx: SeedContext): Promise<void> {
  let created = 0;
  for (const u of demoPortalUsers) {
    const existing = await ctx.portal
      .selectFrom('users')
      .select('id')
      .where('email', '=', u.email)
      .executeTakeFirst();
    if (existing) continue;
    await ctx.portal
      .insertInto('users')
      .values({
        email: u.email,
        name: u.name,
        role: u.role,
        password_hash: await hashPortalPassword(u.password),
      })
      .execute();
    created++;
  }
  const client = await ctx.portal
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'client@acme.localhost')
    .executeTakeFirstOrThrow();
  const hasTicket = await ctx.portal
    .selectFrom('tickets')
    .select('id')
    .where('user_id', '=', client.id)
    .executeTakeFirst();
  if (!hasTicket) {
    await ctx.portal.transaction().execute(async (trx) => {
      const res = await trx
        .insertInto('tickets')
        .values({
          ticket_number: `new-seed-${Date.now()}`,
          user_id: client.id,
          tenant_id: 'acme',
          subject: 'Quotation PDF shows the wrong VAT rate',
          description: 'Quotations for Belgian customers show 21% although they are intra-EU B2B.',
          category: 'bug',
          priority: 'high',
        })
        .executeTakeFirstOrThrow();
      const id = Number(res.insertId);
      await trx
        .updateTable('tickets')
        .set({ ticket_number: sql`concat('TCK-', lpad(id, 6, '0'))` })
        .where('id', '=', id)
        .execute();
    });
  }
  ctx.log(`portal: ${created} user(s) created${hasTicket ? '' : ', demo ticket created'}`);
}

/** The banner's line for the portal's demo users. */
export function portalNotes(ctx: SeedContext): void {
  const port = ctx.proxyPort === 80 ? '' : `:${ctx.proxyPort}`;
  ctx.notes.push(
    `portal http://portal.${ctx.domain}${port}/ (e-mailed code in the fleet log): ` +
      demoPortalUsers.map((u) => `${u.role} ${u.email} / ${u.password}`).join('; '),
  );
}
