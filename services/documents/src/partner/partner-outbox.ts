import type { ApltDatabase, Kysely } from '@aplt/db';
import * as repo from './partner.repository';
import { isActive, readPartnerSettings } from './partner-settings.service';

/**
 * Queues a confirmed order for the partner: called in the transaction that confirms it (a
 * quotation accepted by staff or customer, a direct order moved to confirmed), so the outbox row
 * exists exactly when the confirmation commits. Nothing happens when the tenant's partner sync
 * is off or the order has no partner line (a product of a supplier the partner fulfils); a
 * second call for the same order changes nothing. The worker is told after the commit (the
 * partner plugin's hook) and the scheduled sweep picks up anything that was not.
 */
export async function queueForPartner(db: Kysely<ApltDatabase>, orderId: number): Promise<boolean> {
  const settings = await readPartnerSettings(db);
  if (!isActive(settings)) return false;
  const order = await repo.findOrder(db, orderId);
  if (!order) return false;
  const lines = await repo.findPartnerLines(db, orderId, settings.supplierCodes);
  if (!lines.length) return false;
  return repo.insertQueuedSync(db, {
    id: Number(order.id),
    order_number: order.order_number,
    quotation_id: order.quotation_id == null ? null : Number(order.quotation_id),
    customer_name: order.customer_company ?? order.customer_name ?? null,
    customer_email: order.customer_email ?? null,
  });
}
