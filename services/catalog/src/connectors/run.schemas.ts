import { z } from 'zod';

/*
 * A run of a connector, the commerce sync or the tenant update (aplt_connector_sync), as the
 * admin API shows it. Browser-safe (zod only).
 *
 * Progress: `percent` (0-100, a number) is what a progress bar draws: 0 while queued, rising
 * while the run works (never 100 before it is done), exactly 100 once it succeeded; a failed run
 * keeps the percentage it reached. `phase` says what the run is doing, and `done` of `total` in
 * `unit` is the measure behind the percentage while it works (feed bytes read for connector
 * runs, products for the commerce sync, catalog rows for the tenant update; `total` null when the
 * size is not known in advance, e.g. a feed host that sends no length). A working run writes its
 * progress about once a second.
 */
export const runPhases = [
  'queued',
  'starting',
  'reading',
  'writing',
  'indexing',
  'finishing',
  'succeeded',
  'failed',
] as const;
export type RunPhaseName = (typeof runPhases)[number];

export const runSchema = z.object({
  id: z.number(),
  connector: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  job_id: z.string().nullable(),
  rows_read: z.number(),
  rows_inserted: z.number(),
  rows_updated: z.number(),
  rows_rejected: z.number(),
  /** The stored percentage as a decimal string ("42.50"); `percent` is the same as a number. */
  progress: z.string().nullable(),
  percent: z.number().min(0).max(100),
  phase: z.enum(runPhases),
  done: z.number().nullable(),
  total: z.number().nullable(),
  unit: z.enum(['bytes', 'products', 'rows']).nullable(),
  error: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  queued_at: z.date(),
  started_at: z.date().nullable(),
  finished_at: z.date().nullable(),
});
export type RunView = z.infer<typeof runSchema>;
