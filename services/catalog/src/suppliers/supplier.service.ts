import type { ApltDatabase, Kysely } from '@aplt/db';
import { conflict, notFound } from '@aplt/http';
import { connectors, defaultFormats, type SupplierCode } from '../connectors/connector-registry';
import { toRun } from '../connectors/run-view';
import { latestRuns, type SyncRun } from '../connectors/sync-run.repository';
import { type AuditActor, writeAudit } from '../shared/audit.repository';
import type { UpdateSupplierInput } from './supplier.schemas';
import * as repo from './supplier.repository';

/*
 * Suppliers as the admin panel shows them: the host tenant's own rows (a tenant holds a copy of
 * the master's, brought by the tenant update), with the connectors of each supplier and their
 * newest runs, which live in the master's database (connectors import there).
 */

type Db = Kysely<ApltDatabase>;

const connectorsOf = (code: string) => connectors.filter((c) => c.supplier === code);

function withFormat(s: repo.SupplierRow) {
  return { ...s, format: s.feed_format ?? defaultFormats[s.code as SupplierCode] ?? 'other' };
}

async function runsFor(masterDb: Db | null, codes: string[]) {
  const names = codes.flatMap((code) => connectorsOf(code).map((c) => c.name));
  if (!masterDb || names.length === 0) return new Map<string, SyncRun>();
  return latestRuns(masterDb, names);
}

export async function listSuppliers(
  db: Db,
  masterDb: Db | null,
  q: { q?: string | undefined; is_active?: 'true' | 'false' | undefined; limit: number; offset: number },
  editable: boolean,
) {
  const { rows, count } = await repo.listSuppliers(db, {
    ...q,
    is_active: q.is_active === undefined ? undefined : q.is_active === 'true',
  });
  const runs = await runsFor(
    masterDb,
    rows.map((r) => r.code),
  );
  return {
    data: rows.map((s) => ({
      ...withFormat(s),
      connectors: connectorsOf(s.code).map((c) => {
        const run = runs.get(c.name);
        return {
          name: c.name,
          kind: c.kind,
          status: run?.status ?? 'idle',
          last_run_id: run?.id ?? null,
          last_run_at: run ? (run.finished_at ?? run.started_at ?? run.queued_at) : null,
          last_run_path: run ? `/admin/connectors/sync/runs/${run.id}` : null,
        };
      }),
    })),
    count,
    limit: q.limit,
    offset: q.offset,
    editable,
  };
}

export async function loadSupplier(db: Db, masterDb: Db | null, id: number, editable: boolean) {
  const s = await repo.findSupplier(db, id);
  if (!s) throw notFound(`Supplier ${id} not found`);
  const runs = await runsFor(masterDb, [s.code]);
  return {
    ...withFormat(s),
    editable,
    connectors: connectorsOf(s.code).map((c) => {
      const run = runs.get(c.name);
      return {
        name: c.name,
        kind: c.kind,
        status: run?.status ?? 'idle',
        last_run: run ? toRun(run) : null,
        /** The run's details and rejected rows; start a run with POST /admin/connectors/sync?connector=<name>. */
        last_run_path: run ? `/admin/connectors/sync/runs/${run.id}` : null,
      };
    }),
  };
}

/** Changes a supplier of the master's catalog (the route lets only the master's admins here). */
export async function updateSupplier(
  db: Db,
  masterDb: Db | null,
  id: number,
  input: UpdateSupplierInput,
  who: AuditActor,
) {
  await db.transaction().execute(async (trx) => {
    const current = await repo.findSupplier(trx, id, true);
    if (!current) throw notFound(`Supplier ${id} not found`);
    if (
      input.expected_updated_at !== undefined &&
      current.updated_at.getTime() !== new Date(input.expected_updated_at).getTime()
    )
      throw conflict('The supplier was changed by someone else since it was loaded', {
        updated_at: current.updated_at.toISOString(),
      });
    const { expected_updated_at: _e, ...values } = input;
    await repo.updateSupplier(trx, id, values);
    await writeAudit(trx, who, {
      action: 'supplier.update',
      entity_type: 'supplier',
      entity_id: id,
      changes: values,
    });
  });
  return loadSupplier(db, masterDb, id, true);
}
