import type { Kysely } from '@aplt/db';

export interface CustomerRow {
  id: string;
  email: string | null;
  company: string | null;
  first_name: string | null;
  last_name: string | null;
  vat_number: string | null;
  country: string;
  address_line1: string | null;
  address_line2: string | null;
  postal_code: string | null;
  city: string | null;
  language: string;
  payment_term_days: number;
  payment_term_id: string | null;
  brand_id: string | null;
}

export async function findCustomer(db: Kysely<any>, id: number | string): Promise<CustomerRow | undefined> {
  return db
    .selectFrom('aplt_customers')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst() as Promise<CustomerRow | undefined>;
}

/** Customers are matched to the commerce customer by e-mail, case-insensitively (spec 1). */
export async function findCustomerByEmail(db: Kysely<any>, email: string): Promise<CustomerRow | undefined> {
  return db
    .selectFrom('aplt_customers')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .where('deleted_at', 'is', null)
    .executeTakeFirst() as Promise<CustomerRow | undefined>;
}

export async function findPaymentTermDays(db: Kysely<any>, id: number | string): Promise<number | undefined> {
  const row = await db
    .selectFrom('aplt_payment_terms')
    .select('days')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.days;
}

export async function findDefaultBrandId(db: Kysely<any>): Promise<string | undefined> {
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
