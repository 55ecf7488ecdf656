import type { ApltDatabase, CommerceDatabase, TenantDatabases, TenantRecord, TenantRegistry } from '@aplt/db';
import { type QueueClient, type Redis, startWorker, type WorkerHandle } from '@aplt/queue';
import type { FastifyBaseLogger } from 'fastify';
import * as repo from './account.repository';

export interface AnonymiseDeps {
  registry: TenantRegistry;
  databases: TenantDatabases;
  afterDays: number;
  log: FastifyBaseLogger;
}

/**
 * Anonymises one deleted customer if its grace period has passed as of `asOf`: the aplt side
 * first (keyed by the e-mail, idempotent), then the commerce side in one transaction that also
 * marks it done, so a failure in between is simply repeated by the retry. Documents (quotations,
 * orders, invoices, returns, audit) keep their own copies and are not touched.
 */
export async function anonymiseCustomer(
  deps: AnonymiseDeps,
  tenant: TenantRecord,
  customerId: string,
  asOf: Date,
): Promise<'anonymised' | 'not-due'> {
  const cutoff = new Date(asOf.getTime() - deps.afterDays * 86_400_000);
  const commerce = deps.databases.commerce<CommerceDatabase>(tenant);
  const peek = await commerce
    .selectFrom('customer')
    .select(['email'])
    .where('id', '=', customerId)
    .where('deleted_at', 'is not', null)
    .where('deleted_at', '<=', cutoff)
    .where('anonymised_at', 'is', null)
    .executeTakeFirst();
  if (!peek) return 'not-due';
  if (peek.email) await repo.anonymiseApltCustomer(deps.databases.aplt<ApltDatabase>(tenant), peek.email);
  const done = await commerce.transaction().execute(async (trx) => {
    const due = await repo.lockDueCustomer(trx, customerId, cutoff);
    if (!due) return false;
    await repo.anonymiseCommerceCustomer(trx, customerId, due.email);
    return true;
  });
  if (done) deps.log.info({ tenant: tenant.id, customer: customerId }, 'deleted customer anonymised');
  return done ? 'anonymised' : 'not-due';
}

/** Every deleted customer past its grace period, of one tenant or all: the daily safety net. */
export async function anonymiseDue(deps: AnonymiseDeps, tenantId: string | undefined, asOf: Date) {
  const tenants = tenantId ? [await deps.registry.get(tenantId)] : await deps.registry.list();
  const anonymised: Record<string, string[]> = {};
  const failed: string[] = [];
  for (const t of tenants) {
    if (!t) continue;
    try {
      const cutoff = new Date(asOf.getTime() - deps.afterDays * 86_400_000);
      const ids = await repo.customersDueForAnonymisation(
        deps.databases.commerce<CommerceDatabase>(t),
        cutoff,
      );
      anonymised[t.id] = [];
      for (const id of ids) {
        if ((await anonymiseCustomer(deps, t, id, asOf)) === 'anonymised') anonymised[t.id]!.push(id);
      }
    } catch (err) {
      deps.log.error({ err, tenant: t.id }, 'anonymising deleted customers failed');
      failed.push(t.id);
    }
  }
  if (failed.length) throw new Error(`customers.anonymise-due failed for ${failed.join(', ')}`);
  return { anonymised };
}

/**
 * The `customer-accounts` worker: `customer.anonymise` is the delayed job each deletion queues;
 * `customers.anonymise-due` runs daily and catches any deletion whose job was lost. `asOf` in a
 * payload runs either as of that moment (operators, tests); the grace period still applies.
 */
export function startAccountWorker(
  deps: AnonymiseDeps,
  opts: { connection: Redis; prefix: string },
): WorkerHandle {
  return startWorker(
    'customer-accounts',
    {
      'customer.anonymise': async ({ tenantId, customerId, asOf }) => {
        const tenant = await deps.registry.get(tenantId);
        if (!tenant) return { result: 'unknown-tenant' };
        return {
          result: await anonymiseCustomer(deps, tenant, customerId, asOf ? new Date(asOf) : new Date()),
        };
      },
      'customers.anonymise-due': async ({ tenantId, asOf }) =>
        anonymiseDue(deps, tenantId, asOf ? new Date(asOf) : new Date()),
    },
    opts,
  );
}

/** Daily at 03:15 (idempotent upsert of the scheduler). */
export async function scheduleAnonymiseSweep(queue: QueueClient): Promise<void> {
  await queue.queue('customer-accounts').upsertJobScheduler(
    'customers.anonymise-due.daily',
    { pattern: '15 3 * * *' },
    {
      name: 'customers.anonymise-due',
      data: {},
      opts: { attempts: 3, backoff: { type: 'exponential', delay: 60_000 } },
    },
  );
}
