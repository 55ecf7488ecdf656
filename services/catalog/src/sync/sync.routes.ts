import type { ApltDatabase } from '@aplt/db';
import { type App, notFound, requireActor, unprocessable } from '@aplt/http';
import { z } from 'zod';
import { runSchema, toRun } from '../connectors/connectors.routes';
import { startRun } from '../connectors/run-start.service';
import { getRun, latestRuns, type SyncRun } from '../connectors/sync-run.repository';
import { errorResponses } from '../shared/error-responses';
import { recordIdParam } from '../shared/paging';
import { requireMasterAdmin } from '../master-admin';
import { lastUpdates } from './tenant-registry.repository';

const COMMERCE = 'commerce_sync';
const TENANT_UPDATE = 'tenant_update';
const state = z.enum(['idle', 'queued', 'running']);
const stateOf = (r: SyncRun | undefined): 'idle' | 'queued' | 'running' =>
  r && (r.status === 'queued' || r.status === 'running') ? r.status : 'idle';

/**
 * Manual commerce sync (this tenant's aplt catalog -> its commerce catalog) and tenant update
 * (the master's catalog -> chosen tenants' catalogs). The commerce sync stays within the calling
 * tenant, so each tenant's admin runs it; the tenant update writes into other tenants and lists
 * every tenant of the fleet, so both of its routes are for the master's admins only.
 */
export async function syncRoutes(app: App) {
  // The commerce sync is part of the connectors screen (spec 1 lists it under /admin/connectors).
  const guard = { config: { feature: 'connectors' as const }, preHandler: requireActor('user') };
  const masterOnly = {
    config: { feature: 'product_copy' as const },
    preHandler: requireMasterAdmin('The tenant update'),
  };
  const stateResponse = z.object({ state, last_run: runSchema.nullable() });

  app.get(
    '/admin/connectors/commerce-sync',
    { ...guard, schema: { response: { 200: stateResponse } } },
    async (request) => {
      const run = (
        await latestRuns(app.catalogDeps.databases.aplt<ApltDatabase>(request.tenant), [COMMERCE])
      ).get(COMMERCE);
      return { state: stateOf(run), last_run: run ? toRun(run) : null };
    },
  );

  app.post(
    '/admin/connectors/commerce-sync',
    {
      ...guard,
      schema: {
        // full=true rewrites every product; by default only those changed since the last sync.
        querystring: z.object({ full: z.enum(['true', 'false']).optional() }),
        response: { 202: z.object({ job_id: z.string(), run_id: z.number(), state: z.literal('queued') }) },
      },
    },
    async (request, reply) => {
      const full = request.query.full === 'true';
      const db = app.catalogDeps.databases.aplt<ApltDatabase>(request.tenant);
      const { run, jobId } = await startRun(
        db,
        app.catalogDeps.queues,
        'commerce-sync',
        { connector: COMMERCE, triggeredBy: request.actor?.actorId ?? null, metadata: { full } },
        (r) =>
          app.catalogDeps.queues.enqueue(
            'commerce-sync',
            'commerce-sync.run',
            { tenantId: request.tenant.id, runId: r.id, full },
            { jobId: `commerce-sync-${request.tenant.id}-${r.id}` },
          ),
      );
      return reply.code(202).send({ job_id: jobId, run_id: run.id, state: 'queued' as const });
    },
  );

  // One commerce-sync run of this tenant, for a progress bar that follows the run it started.
  app.get(
    '/admin/connectors/commerce-sync/runs/:id',
    {
      ...guard,
      schema: { params: recordIdParam, response: { ...errorResponses, 200: z.object({ run: runSchema }) } },
    },
    async (request) => {
      const run = await getRun(
        app.catalogDeps.databases.aplt<ApltDatabase>(request.tenant),
        request.params.id,
      );
      if (!run || run.connector !== COMMERCE)
        throw notFound(`Commerce-sync run ${request.params.id} not found`);
      return { run: toRun(run) };
    },
  );

  app.get(
    '/admin/tenant-update/runs/:id',
    {
      ...masterOnly,
      schema: { params: recordIdParam, response: { ...errorResponses, 200: z.object({ run: runSchema }) } },
    },
    async (request) => {
      const run = await getRun(
        app.catalogDeps.databases.aplt<ApltDatabase>(request.tenant),
        request.params.id,
      );
      if (!run || run.connector !== TENANT_UPDATE)
        throw notFound(`Tenant-update run ${request.params.id} not found`);
      return { run: toRun(run) };
    },
  );

  app.get(
    '/admin/tenant-update',
    {
      ...masterOnly,
      schema: {
        response: {
          200: z.object({
            tenants: z.array(
              z.object({
                id: z.string(),
                name: z.string(),
                kind: z.string(),
                last_update_at: z.date().nullable(),
              }),
            ),
            state,
            last_run: runSchema.nullable(),
          }),
        },
      },
    },
    async (request) => {
      // The guard let only the master's own admins through: the source is the request's tenant.
      const m = request.tenant;
      const db = app.catalogDeps.databases.aplt<ApltDatabase>(m);
      const updates = await lastUpdates(db);
      const run = (await latestRuns(db, [TENANT_UPDATE])).get(TENANT_UPDATE);
      const tenants = (await app.catalogDeps.registry.list())
        .filter((t) => t.kind !== 'master')
        .map((t) => ({ id: t.id, name: t.name, kind: t.kind, last_update_at: updates.get(t.id) ?? null }));
      return { tenants, state: stateOf(run), last_run: run ? toRun(run) : null };
    },
  );

  app.post(
    '/admin/tenant-update',
    {
      ...masterOnly,
      schema: {
        body: z.object({ tenant_ids: z.array(z.string().min(1).max(50)).min(1).max(100) }),
        response: {
          202: z.object({
            job_id: z.string(),
            run_id: z.number(),
            state: z.literal('queued'),
            tenant_ids: z.array(z.string()),
          }),
        },
      },
    },
    async (request, reply) => {
      const m = request.tenant;
      const all = await app.catalogDeps.registry.list();
      const ids = [...new Set(request.body.tenant_ids)];
      for (const id of ids) {
        const t = all.find((x) => x.id === id);
        if (!t) throw notFound(`Unknown tenant ${id}`, { tenant_id: id });
        if (t.kind === 'master')
          throw unprocessable('The master is the source of a tenant update, not a target', { tenant_id: id });
      }
      const db = app.catalogDeps.databases.aplt<ApltDatabase>(m);
      const { run, jobId } = await startRun(
        db,
        app.catalogDeps.queues,
        'tenant-update',
        { connector: TENANT_UPDATE, triggeredBy: request.actor?.actorId ?? null, metadata: { targets: ids } },
        (r) =>
          app.catalogDeps.queues.enqueue(
            'tenant-update',
            'tenant-update.run',
            { sourceTenantId: m.id, targetTenantIds: ids, runId: r.id },
            { jobId: `tenant-update-${m.id}-${r.id}` },
          ),
      );
      return reply
        .code(202)
        .send({ job_id: jobId, run_id: run.id, state: 'queued' as const, tenant_ids: ids });
    },
  );
}
