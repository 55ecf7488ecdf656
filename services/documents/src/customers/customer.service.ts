import {
  type ApltDatabase,
  isForeignKeyViolation,
  isUniqueViolation,
  type Kysely,
  pgErrorCode,
} from '@aplt/db';
import { conflict, notFound, unprocessable } from '@aplt/http';
import { invoiceState } from '../invoices/invoice.service';
import { recordAudit } from '../shared/audit.service';
import { today } from '../shared/context';
import { type CustomerRow, findCustomer, findCustomerByEmail } from '../shared/customer.repository';
import { inTransaction } from '../shared/in-transaction';
import { definedOnly } from '../shared/values';
import { type CreateCustomerInput, customerFields, type UpdateCustomerInput } from './customer.schemas';
import * as repo from './customer.repository';
import { vatNumberProblem } from './vat-number';
import type { z } from 'zod';

export interface Actor {
  actor: string | null;
  request_id?: string | null;
  ip?: string | null;
  user_agent?: string | null;
}

const RECENT_DOCUMENTS = 10;

/** Column values of a create/update body: JSON columns serialised, absent fields left out. */
function columns(input: Partial<UpdateCustomerInput>): repo.CustomerValues {
  const { expected_updated_at: _, metadata, shipping_address, ...plain } = input;
  // Pick: every field of the form is stored in the column of its name.
  const out: repo.CustomerValues = definedOnly<Pick<repo.CustomerValues, keyof typeof plain>>(plain);
  if (metadata !== undefined) out.metadata = JSON.stringify(metadata);
  if (shipping_address !== undefined)
    out.shipping_address = shipping_address === null ? null : JSON.stringify(shipping_address);
  return out;
}

/** A database refusal of a customer write as the client's error; anything else is rethrown. */
function refusal(err: unknown): never {
  if (isUniqueViolation(err)) {
    const constraint = (err as { constraint?: string }).constraint ?? '';
    if (constraint.includes('email'))
      throw conflict('Another customer has this e-mail address', { field: 'email' });
    if (constraint.includes('customer_number'))
      throw conflict('Another customer has this customer number', { field: 'customer_number' });
    if (constraint.includes('commerce_customer'))
      throw conflict('Another customer is linked to this commerce customer');
    throw conflict('Another customer has the same unique value');
  }
  if (isForeignKeyViolation(err)) {
    const constraint = (err as { constraint?: string }).constraint ?? '';
    const field = ['payment_term_id', 'discount_group_id', 'brand_id'].find((f) =>
      constraint.includes(f.replace(/_id$/, '')),
    );
    throw unprocessable(`${field ?? 'A reference'} names a record that does not exist`, { field });
  }
  if (pgErrorCode(err) === '23514') throw unprocessable('A value breaks a rule of the customer table');
  throw err;
}

async function ensureUnique(db: Kysely<ApltDatabase>, values: repo.CustomerValues, exceptId?: number) {
  if (typeof values.email === 'string') {
    const other = await repo.customerIdByEmail(db, values.email);
    if (other !== undefined && other !== exceptId)
      throw conflict('Another customer has this e-mail address', { field: 'email', customer_id: other });
  }
  if (typeof values.customer_number === 'string') {
    const other = await repo.customerIdByNumber(db, values.customer_number);
    if (other !== undefined && other !== exceptId)
      throw conflict('Another customer has this customer number', {
        field: 'customer_number',
        customer_id: other,
      });
  }
}

export async function listCustomers(
  db: Kysely<ApltDatabase>,
  q: {
    q?: string | undefined;
    is_active?: 'true' | 'false' | undefined;
    sort: repo.CustomerFilter['sort'];
    limit: number;
    offset: number;
  },
) {
  const { rows, count } = await repo.listCustomers(db, {
    ...q,
    is_active: q.is_active === undefined ? undefined : q.is_active === 'true',
  });
  return { data: rows, count, limit: q.limit, offset: q.offset };
}

export async function loadCustomer(db: Kysely<ApltDatabase>, id: number) {
  const c = await repo.findCustomer(db, id);
  if (!c) throw notFound(`Customer ${id} not found`);
  const asOf = today();
  const [balances, counts, docs] = await Promise.all([
    repo.customerBalances(db, id, asOf),
    repo.documentCounts(db, id),
    repo.recentDocuments(db, id, RECENT_DOCUMENTS),
  ]);
  return {
    ...c,
    open_balance: balances.open,
    overdue_balance: balances.overdue,
    available_credit: balances.credit,
    document_counts: {
      quotations: counts.quotations,
      orders: counts.orders,
      invoices: counts.invoices,
      credit_notes: counts.credit_notes,
      payments: counts.payments,
    },
    recent_documents: docs.map((d) => {
      const invoice = d.type === 'invoice' ? invoiceState({ ...d, due_date: d.due_date }, asOf) : null;
      return {
        type: d.type,
        id: d.id,
        number: d.number,
        date: d.date,
        status: invoice?.status ?? d.status,
        total: d.total,
        balance: invoice?.balance ?? null,
      };
    }),
  };
}

export async function createCustomer(db: Kysely<ApltDatabase>, input: CreateCustomerInput, who: Actor) {
  const values = columns(input);
  try {
    const id = await inTransaction(db, async (trx) => {
      await repo.lockCustomerNumbers(trx);
      values.customer_number ??= await repo.nextCustomerNumber(trx);
      await ensureUnique(trx, values);
      const row = await repo.insertCustomer(trx, values);
      await recordAudit(trx, audit(who, 'customer.create', row.id, values));
      return row.id;
    });
    return loadCustomer(db, id);
  } catch (err) {
    return refusal(err);
  }
}

export async function updateCustomer(
  db: Kysely<ApltDatabase>,
  id: number,
  input: UpdateCustomerInput,
  who: Actor,
) {
  const values = columns(input);
  try {
    await inTransaction(db, async (trx) => {
      const current = await repo.findCustomer(trx, id, true);
      if (!current) throw notFound(`Customer ${id} not found`);
      if (
        input.expected_updated_at !== undefined &&
        current.updated_at.getTime() !== new Date(input.expected_updated_at).getTime()
      )
        throw conflict('The customer was changed by someone else since it was loaded', {
          updated_at: current.updated_at.toISOString(),
        });
      // A new country must suit the stored VAT number and a new VAT number the stored country.
      const vat = values.vat_number !== undefined ? values.vat_number : current.vat_number;
      const country = values.country ?? current.country;
      const problem = vat ? vatNumberProblem(vat, country) : null;
      if (problem) throw unprocessable(`vat_number: ${problem}`, { field: 'vat_number' });
      const name = { ...current, ...values };
      if (!name.company && !name.last_name && !name.first_name)
        throw unprocessable('A customer needs a company or a name', { field: 'company' });
      if (values.customer_number !== undefined) await repo.lockCustomerNumbers(trx);
      await ensureUnique(trx, values, id);
      if (Object.keys(values).length === 0) return;
      await repo.updateCustomer(trx, id, values);
      await recordAudit(trx, audit(who, 'customer.update', id, values));
    });
  } catch (err) {
    refusal(err);
  }
  return loadCustomer(db, id);
}

/**
 * Only a customer without documents is removed; one with documents is part of the books (409
 * with the counts): make it inactive instead.
 */
export async function removeCustomer(db: Kysely<ApltDatabase>, id: number, who: Actor) {
  try {
    await inTransaction(db, async (trx) => {
      const current = await repo.findCustomer(trx, id, true);
      if (!current) throw notFound(`Customer ${id} not found`);
      const counts = await repo.documentCounts(trx, id);
      const total = Object.values(counts).reduce((a, b) => a + b, 0);
      if (total > 0)
        throw conflict(
          `Customer ${current.customer_number ?? id} has documents and cannot be deleted; set it inactive instead`,
          { documents: counts },
        );
      await repo.deleteCustomer(trx, id);
      await recordAudit(trx, audit(who, 'customer.delete', id, { customer_number: current.customer_number }));
    });
  } catch (err) {
    // Rows that name the customer outside the documents (journal lines, credit) also keep it.
    if (isForeignKeyViolation(err))
      throw conflict('The customer is referenced by bookkeeping records and cannot be deleted');
    throw err;
  }
}

/** What the shop knows of a signed-in customer (their commerce account), to start a customer record from. */
export interface ShopProfile {
  commerce_customer_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  phone: string | null;
  language: string | null;
}

/**
 * The tenant's customer record of a signed-in shop customer, made from their profile when there
 * is none (issue #15: invoicing needs one, and staff had to make it by hand). Call it inside the
 * transaction of the document that needs it, so the record exists exactly when the document does.
 *
 * The record is the one with the caller's e-mail (case-insensitive), the same rule by which the
 * customer routes decide what is the caller's. A new one gets the next customer number under the
 * numbering lock (which also makes concurrent first requests of one customer wait for each
 * other), and the insert does nothing when the e-mail is taken meanwhile (unique index on
 * lower(email)): then the record that took it is the answer. Profile values the staff form would
 * refuse are left out; a record that cannot be made (an e-mail the table refuses, or one held by
 * a deleted record) answers undefined and the document stays without one, as a guest's does.
 */
export async function shopCustomerFor(
  trx: Kysely<ApltDatabase>,
  profile: ShopProfile,
  who: Omit<Actor, 'actor'>,
): Promise<CustomerRow | undefined> {
  const existing = await findCustomerByEmail(trx, profile.email);
  if (existing) return existing;
  const values = shopCustomerColumns(profile);
  if (!values) return undefined;
  await repo.lockCustomerNumbers(trx);
  // A concurrent request of the same customer held the lock until it committed its record.
  const made = await findCustomerByEmail(trx, profile.email);
  if (made) return made;
  // The commerce customer links one record; one already linked (an e-mail changed since) keeps it.
  if ((await repo.customerIdByCommerceId(trx, profile.commerce_customer_id)) === undefined)
    values.commerce_customer_id = profile.commerce_customer_id;
  values.customer_number = await repo.nextCustomerNumber(trx);
  const row = await repo.insertCustomerUnlessTaken(trx, values);
  if (!row) return findCustomerByEmail(trx, profile.email);
  await recordAudit(trx, {
    ...audit({ ...who, actor: profile.email }, 'customer.create', row.id, values),
    actor_type: 'customer',
  });
  return findCustomer(trx, row.id);
}

/** The profile as customer columns, each checked as the staff form checks it (a bad one is left out). */
function shopCustomerColumns(profile: ShopProfile): repo.CustomerValues | undefined {
  const email = customerFields.shape.email.safeParse(profile.email);
  if (!email.success || !email.data) return undefined;
  const f = customerFields.shape;
  return definedOnly({
    email: email.data,
    metadata: JSON.stringify({ origin: 'shop' }),
    first_name: checked(f.first_name, profile.first_name),
    last_name: checked(f.last_name, profile.last_name),
    company: checked(f.company, profile.company),
    phone: checked(f.phone, profile.phone),
    language: checked(f.language, profile.language),
  });
}

/** The value as the schema leaves it, or undefined for one it refuses, null or absent. */
function checked<S extends z.ZodType>(schema: S, v: unknown): NonNullable<z.output<S>> | undefined {
  if (v === null || v === undefined) return undefined;
  const parsed = schema.safeParse(v);
  return parsed.success && parsed.data !== null && parsed.data !== undefined ? parsed.data : undefined;
}

function audit(who: Actor, action: string, id: number, changes: unknown) {
  return {
    actor: who.actor,
    actor_type: 'admin' as const,
    action,
    entity_type: 'customer',
    entity_id: id,
    changes,
    ip: who.ip ?? null,
    user_agent: who.user_agent ?? null,
    request_id: who.request_id ?? null,
  };
}
