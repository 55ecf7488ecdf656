import type { ApltDatabase, Kysely, Selectable } from '@aplt/db';

/** A customer as stored; documents copy its name, address and terms when they are made. */
export type CustomerRow = Selectable<ApltDatabase['aplt_customers']>;

export async function findCustomer(db: Kysely<ApltDatabase>, id: number): Promise<CustomerRow | undefined> {
  return db
    .selectFrom('aplt_customers')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Customers are matched to the commerce customer by e-mail, case-insensitively (spec 1). */
export async function findCustomerByEmail(
  db: Kysely<ApltDatabase>,
  email: string,
): Promise<CustomerRow | undefined> {
  return db
    .selectFrom('aplt_customers')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function findPaymentTermDays(db: Kysely<ApltDatabase>, id: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('aplt_payment_terms')
    .select('days')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.days;
}

export async function findDefaultBrandId(db: Kysely<ApltDatabase>): Promise<number | undefined> {
  const row = await db
    .selectFrom('aplt_brands')
    .select('id')
    .where('is_default', '=', true)
    .executeTakeFirst();
  return row?.id;
}

export const customerName = (c: CustomerRow) =>
  [c.first_name, c.last_name].filter(Boolean).join(' ') || c.company || c.email || null;

export const customerAddress = (c: CustomerRow) => ({
  company: c.company,
  name: customerName(c),
  address_line1: c.address_line1,
  address_line2: c.address_line2,
  postal_code: c.postal_code,
  city: c.city,
  country: c.country,
});
