import { env, loadEnv } from '@aplt/config';
import { z } from 'zod';

/**
 * Settings of the partner fulfilment sync (issue #16); parsed apart so the core config stays
 * untouched. The per-tenant partner address and credentials are not here: they are tenant
 * settings (aplt_settings, `/admin/aplt/parameters/partner`).
 */
export const partnerConfigShape = {
  // Time limit of one call to the partner's API (spec 1: 30 s); a call past it counts as a network error.
  PARTNER_TIMEOUT_MS: z.coerce.number().int().min(1).max(300_000).default(30_000),
  // Waits before the retries of a call that failed with a 5xx or a network error (spec 1: 1, 2, 4 s).
  PARTNER_RETRY_DELAYS_MS: z
    .string()
    .regex(/^\d{1,6}(,\d{1,6}){0,9}$/, 'expected a comma-separated list of milliseconds like 1000,2000,4000')
    .default('1000,2000,4000')
    .transform((v) => v.split(',').map(Number)),
  // Logins again after a 401 from the partner, at most this many times per call (spec 1: 3).
  PARTNER_MAX_REAUTH: z.coerce.number().int().min(0).max(10).default(3),
  // How often the scheduler looks for orders waiting to be sent and status reads that are due.
  PARTNER_SWEEP_EVERY_MS: z.coerce.number().int().min(1_000).default(15_000),
  // How long after the last read an order sent to the partner is read again (shipped, tracking URL).
  PARTNER_POLL_EVERY_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(5 * 60_000),
  // A claim ('sending') older than this belongs to a worker that died: another may take it over.
  // Longer than any one job may run (the queue's time limit), so a live sender is never overtaken.
  PARTNER_SEND_LEASE_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(15 * 60_000),
  // Run the partner-sync worker and its scheduler in this process (with DOCUMENTS_WORKER).
  PARTNER_WORKER: env.bool(true),
};

export type PartnerConfig = ReturnType<typeof loadPartnerConfig>;
export const loadPartnerConfig = (source: Record<string, string | undefined> = process.env) =>
  loadEnv(partnerConfigShape, source);
