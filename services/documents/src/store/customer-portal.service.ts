import type { ApltDatabase, CommerceDatabase, Kysely } from '@aplt/db';
import { unauthorized } from '@aplt/http';
import { type CustomerRow, findCustomerByEmail } from '../shared/customer.repository';
import { commerceCustomerEmail } from './customer-portal.repository';

export interface Caller {
  email: string;
  customer: CustomerRow | undefined;
}

/**
 * The caller is the commerce customer of the token; its e-mail (case-insensitive) links it to
 * aplt_customers (spec 1: "matched to a commerce customer by e-mail address").
 */
export async function identifyCaller(
  commerce: Kysely<CommerceDatabase>,
  aplt: Kysely<ApltDatabase>,
  actorId: string | undefined,
): Promise<Caller> {
  if (!actorId) throw unauthorized();
  const email = await commerceCustomerEmail(commerce, actorId);
  if (!email) throw unauthorized('Unknown customer');
  return { email: email.toLowerCase(), customer: await findCustomerByEmail(aplt, email) };
}

/** A quotation is the caller's when it names the caller's aplt customer or is addressed to the caller's e-mail. */
export function ownsQuotation(
  q: { customer_id: number | null; customer_email: string | null },
  who: Caller,
): boolean {
  return (
    (who.customer !== undefined && String(q.customer_id) === String(who.customer.id)) ||
    q.customer_email?.toLowerCase() === who.email
  );
}
