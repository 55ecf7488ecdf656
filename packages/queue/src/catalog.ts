import { z } from 'zod';

const tenantId = z.string().min(1).max(50);

/**
 * Every queue, its job names, each job's payload schema, retry policy and timeout: the one
 * table of facts that producers and workers share. A worker must handle every job of its queue
 * (checked at start-up), and a payload that does not match its schema is never enqueued.
 * `timeoutMs` is the default time limit of one job: past it the handler's signal aborts (a
 * service may configure its own limit, see startWorker).
 */
export const queueCatalog = {
  connectors: {
    jobs: {
      'connector.run': z.object({ tenantId, connector: z.string(), runId: z.number().int() }),
    },
    // A run records its own failure on its row and completes its job; a job fails only when that
    // could not happen (the tenant database unreachable before or after the run). Retrying is
    // safe: the run row lets a queued or interrupted run start once more, never a finished one.
    attempts: 3,
    backoffMs: 2_000,
    timeoutMs: 30 * 60_000,
  },
  'commerce-sync': {
    jobs: {
      // full: rewrite every product, not only those whose fingerprint changed.
      'commerce-sync.run': z.object({ tenantId, runId: z.number().int(), full: z.boolean().optional() }),
    },
    attempts: 3,
    backoffMs: 2_000,
    timeoutMs: 30 * 60_000,
  },
  'tenant-update': {
    jobs: {
      'tenant-update.run': z.object({
        sourceTenantId: tenantId,
        targetTenantIds: z.array(tenantId).min(1),
        runId: z.number().int(),
      }),
    },
    attempts: 3,
    backoffMs: 2_000,
    timeoutMs: 30 * 60_000,
  },
  'password-sync': {
    jobs: {
      'password-sync.run': z.object({
        sourceTenantId: tenantId,
        entityId: z.string().min(1),
        provider: z.string().min(1),
        runId: z.string().min(1),
      }),
      // One retry job per tenant that failed, so a slow tenant never holds back the others.
      'password-sync.tenant': z.object({
        sourceTenantId: tenantId,
        targetTenantId: tenantId,
        entityId: z.string().min(1),
        provider: z.string().min(1),
        runId: z.string().min(1),
      }),
    },
    attempts: 10,
    backoffMs: 1_000,
    timeoutMs: 60_000,
  },
  pdf: {
    jobs: { 'pdf.render': z.object({ tenantId, documentType: z.string(), documentId: z.number().int() }) },
    attempts: 3,
    backoffMs: 1_000,
    timeoutMs: 60_000,
  },
  callbacks: {
    jobs: {
      'callback.deliver': z.object({
        transactionId: z.string().uuid(),
        url: z.string().url(),
        integration: z.string(),
        // Absolute address of the modal service, so the callback's file URLs are absolute.
        baseUrl: z.string().url(),
      }),
    },
    attempts: 8,
    backoffMs: 1_000,
    timeoutMs: 30_000,
  },
  // Partner fulfilment (issue #16): the HTTP retries (re-login after 401, 1/2/4 s after 5xx) run
  // inside one job; BullMQ's attempts only cover a crash or a database outage. A job may wait up
  // to 4 x 30 s per partner call, hence the long limit.
  'partner-sync': {
    jobs: {
      // Send one order (claimed in partner_order_sync first, so a repeat sends nothing).
      'partner-sync.order': z.object({ tenantId, orderId: z.number().int() }),
      // Read one sent order's state from the partner (shipped, tracking URL).
      'partner-sync.status': z.object({ tenantId, orderId: z.number().int() }),
      // Scheduled: per tenant with the partner enabled, queue the orders waiting to be sent and
      // the status reads that are due; a tenant id limits it to that tenant.
      'partner-sync.sweep': z.object({ tenantId: tenantId.optional() }),
    },
    attempts: 5,
    backoffMs: 1_000,
    timeoutMs: 10 * 60_000,
  },
  rebuild: {
    jobs: {
      // tenantId: whose aplt DB holds the project; targetTenant: the tenant being rebuilt.
      'rebuild.tenant': z.object({
        tenantId,
        projectId: z.number().int(),
        deploymentLogId: z.number().int(),
        targetTenant: tenantId,
      }),
    },
    attempts: 1,
    backoffMs: 0,
    timeoutMs: 30 * 60_000,
  },
  // Transactional e-mail (password resets, verification, one-time codes): kept in Redis until
  // the SMTP server accepted it, so an SMTP outage or a restart delays a message, never loses it.
  mail: {
    jobs: {
      'mail.send': z.object({
        to: z.string().email(),
        subject: z.string().min(1).max(500),
        text: z.string(),
        html: z.string().optional(),
      }),
    },
    attempts: 10,
    backoffMs: 1_000,
    timeoutMs: 60_000,
  },
  // Storefront account deletion: a customer's personal data is anonymised a configured number of
  // days after the soft delete (a delayed job per deletion, and a daily sweep for any job that
  // was lost). asOf (ISO time) lets an operator or a test run them as of another moment; only a
  // deletion older than the grace period is ever anonymised.
  'customer-accounts': {
    jobs: {
      'customer.anonymise': z.object({
        tenantId,
        customerId: z.string().min(1).max(100),
        asOf: z.string().datetime().optional(),
      }),
      'customers.anonymise-due': z.object({
        tenantId: tenantId.optional(),
        asOf: z.string().datetime().optional(),
      }),
    },
    attempts: 10,
    backoffMs: 60_000,
    // The daily sweep may walk every tenant.
    timeoutMs: 10 * 60_000,
  },
  // The logo modal's housekeeping: abandoned drafts and their files, hourly by one scheduler.
  'logo-modal': {
    jobs: { 'drafts.purge': z.object({}) },
    attempts: 3,
    backoffMs: 60_000,
    timeoutMs: 10 * 60_000,
  },
  documents: {
    jobs: {
      'quotations.expire': z.object({ tenantId: tenantId.optional() }),
      // One tenant's subscription invoices for the period containing `date` (YYYY-MM-DD; default
      // the day the job was scheduled for). Idempotent per subscription and period, so retries
      // only finish what a failed attempt left.
      'subscriptions.bill': z.object({
        tenantId,
        date: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .optional(),
      }),
    },
    attempts: 3,
    backoffMs: 5_000,
    timeoutMs: 5 * 60_000,
  },
} as const satisfies Record<
  string,
  { jobs: Record<string, z.ZodType>; attempts: number; backoffMs: number; timeoutMs: number }
>;

export type QueueName = keyof typeof queueCatalog;
export type JobName<Q extends QueueName> = keyof (typeof queueCatalog)[Q]['jobs'] & string;
export type JobPayload<Q extends QueueName, J extends JobName<Q>> = z.infer<
  (typeof queueCatalog)[Q]['jobs'][J] extends z.ZodType ? (typeof queueCatalog)[Q]['jobs'][J] : never
>;
