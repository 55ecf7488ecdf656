import { type App, notFound, requireActor } from '@aplt/http';
import type { QueueClient } from '@aplt/queue';

type Queue = ReturnType<QueueClient['queue']>;
import { z } from 'zod';
import type { RunStateStore } from './run-state.repository';
import { getRun } from './runs.service';

const tenantState = z.object({
  tenant_id: z.string(),
  status: z.string(),
  attempts: z.number(),
  error: z.string().optional(),
  at: z.string(),
});
const counts = z.object({
  databases: z.number(),
  updated: z.number(),
  not_present: z.number(),
  retrying: z.number(),
  failed: z.number(),
});
export const runSchema = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running', 'retrying', 'completed', 'failed']),
  source_tenant_id: z.string().nullable(),
  entity_id: z.string().nullable(),
  started_at: z.string().nullable(),
  first_pass: z
    .object({ databases: z.number(), updated: z.number(), failed: z.number(), notPresent: z.number() })
    .nullable(),
  counts,
  tenants: z.array(tenantState),
  error: z.string().nullable(),
});

/** No licensed feature: a password sync is part of every tenant's admin login (spec 1, Authentication 3). */
const syncRuns = {
  feature: null,
  featureReason: "password sync run state: part of every tenant's admin authentication",
} as const;

/** Run state of password syncs for admins (any tenant's admin: a sync touches every tenant). */
export function runsRoutes(app: App, runs: RunStateStore, queue: Queue): void {
  app.get(
    '/admin/password-sync/runs/:id',
    {
      config: syncRuns,
      preHandler: requireActor('user'),
      schema: {
        params: z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/) }),
        response: { 200: z.object({ run: runSchema }) },
      },
    },
    async (request) => {
      const run = await getRun(runs, queue, request.params.id);
      if (!run) throw notFound('Password sync run not found');
      return { run };
    },
  );

  app.get(
    '/admin/password-sync/runs',
    {
      config: syncRuns,
      preHandler: requireActor('user'),
      schema: {
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
        response: { 200: z.object({ runs: z.array(runSchema) }) },
      },
    },
    async (request) => {
      const ids = await runs.recent(request.query.limit);
      const found = await Promise.all(ids.map((id) => getRun(runs, queue, id)));
      return { runs: found.filter((r) => r !== undefined) };
    },
  );
}
