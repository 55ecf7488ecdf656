import type { ApltDatabase } from '@aplt/db';
import { type App, notFound, requireActor, unprocessable } from '@aplt/http';
import { z } from 'zod';
import { masterTenant } from '../deps';
import { requireMasterAdmin } from '../master-admin';
import { connectors, defaultFormats, findConnector } from './connector-registry';
import { startRun } from './run-start.service';
import { runSchema } from './run.schemas';
import { toRun } from './run-view';
import {
  getRun,
  latestRuns,
  listRejects,
  listRuns,
  supplierExists,
  supplierFormats,
} from './sync-run.repository';
import { errorResponses } from '../shared/error-responses';
import { pageOf, pageQuery, recordIdParam } from '../shared/paging';

export { runSchema, toRun };

/**
 * Connector runs: listed with their last run; started through the queue, one at a time each.
 * Every tenant's admin may read the connector state (the admin panel shows it read-only on
 * tenants); only the master's admins start an import, since it writes the master catalog that
 * every tenant update copies from.
 */
export async function connectorRoutes(app: App) {
  const licensed = { config: { feature: 'connectors' as const } };
  const guard = { ...licensed, preHandler: requireActor('user') };
  const masterOnly = { ...licensed, preHandler: requireMasterAdmin('Starting a connector import') };
  const master = async () => {
    const m = await masterTenant(app.catalogDeps.registry);
    if (!m) throw unprocessable('No master tenant is registered: connectors import into the master catalog');
    return m;
  };

  app.get(
    '/admin/connectors/sync',
    {
      ...guard,
      schema: {
        response: {
          200: z.object({
            connectors: z.array(
              z.object({
                name: z.string(),
                supplier_code: z.string(),
                kind: z.string(),
                format: z.string(),
                status: z.string(),
                last_run: runSchema.nullable(),
              }),
            ),
            count: z.number(),
          }),
        },
      },
    },
    async () => {
      const db = app.catalogDeps.databases.aplt<ApltDatabase>(await master());
      const runs = await latestRuns(
        db,
        connectors.map((c) => c.name),
      );
      const suppliers = await supplierFormats(db);
      const list = connectors.map((c) => {
        const run = runs.get(c.name);
        return {
          name: c.name,
          supplier_code: c.supplier,
          kind: c.kind,
          format: suppliers.get(c.supplier) ?? defaultFormats[c.supplier],
          status: run?.status ?? 'idle',
          last_run: run ? toRun(run) : null,
        };
      });
      return { connectors: list, count: list.length };
    },
  );

  app.post(
    '/admin/connectors/sync',
    {
      ...masterOnly,
      schema: {
        querystring: z.object({ connector: z.string().min(1).max(50) }),
        response: {
          202: z.object({
            job_id: z.string(),
            run_id: z.number(),
            connector: z.string(),
            status: z.literal('queued'),
          }),
        },
      },
    },
    async (request, reply) => {
      const connector = findConnector(request.query.connector);
      if (!connector)
        throw notFound(`Unknown connector ${request.query.connector}`, {
          connector: request.query.connector,
        });
      const tenant = request.tenant;
      const db = app.catalogDeps.databases.aplt<ApltDatabase>(tenant);
      const supplierKnown = await supplierExists(db, connector.supplier);
      const { run, jobId } = await startRun(
        db,
        app.catalogDeps.queues,
        'connectors',
        {
          connector: connector.name,
          supplierCode: supplierKnown ? connector.supplier : null,
          triggeredBy: request.actor?.actorId ?? null,
        },
        (r) =>
          app.catalogDeps.queues.enqueue(
            'connectors',
            'connector.run',
            { tenantId: tenant.id, connector: connector.name, runId: r.id },
            { jobId: `connector-${tenant.id}-${r.id}` },
          ),
      );
      return reply
        .code(202)
        .send({ job_id: jobId, run_id: run.id, connector: connector.name, status: 'queued' as const });
    },
  );

  app.get(
    '/admin/connectors/sync/runs',
    {
      ...guard,
      schema: {
        querystring: pageQuery.extend({
          /** One connector (`01_products`), or every supplier connector. */
          connector: z.string().max(50).optional(),
          status: z.enum(['queued', 'running', 'succeeded', 'failed']).optional(),
        }),
        response: { ...errorResponses, 200: pageOf(runSchema) },
      },
    },
    async (request) => {
      const q = request.query;
      if (q.connector !== undefined && !findConnector(q.connector))
        throw notFound(`Unknown connector ${q.connector}`, { connector: q.connector });
      const db = app.catalogDeps.databases.aplt<ApltDatabase>(await master());
      const { rows, count } = await listRuns(db, {
        connectors: q.connector !== undefined ? [q.connector] : connectors.map((c) => c.name),
        status: q.status,
        limit: q.limit,
        offset: q.offset,
      });
      return { data: rows.map(toRun), count, limit: q.limit, offset: q.offset };
    },
  );

  app.get(
    '/admin/connectors/sync/runs/:id',
    {
      ...guard,
      schema: {
        params: recordIdParam,
        response: {
          ...errorResponses,
          200: z.object({
            run: runSchema,
            rejects: z.array(
              z.object({
                row_number: z.number().nullable(),
                key: z.string().nullable(),
                reason: z.string(),
                raw: z.unknown(),
              }),
            ),
          }),
        },
      },
    },
    async (request) => {
      const db = app.catalogDeps.databases.aplt<ApltDatabase>(await master());
      const run = await getRun(db, request.params.id);
      if (!run) throw notFound(`Run ${request.params.id} not found`);
      return { run: toRun(run), rejects: await listRejects(db, run.id, 500) };
    },
  );
}
