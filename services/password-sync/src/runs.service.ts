import type { QueueClient } from '@aplt/queue';

type Queue = ReturnType<QueueClient['queue']>;
import type { RunMeta, RunStateStore, TenantSyncState } from './run-state.repository';

export type RunStatus = 'queued' | 'running' | 'retrying' | 'completed' | 'failed';

export interface RunView {
  id: string;
  status: RunStatus;
  source_tenant_id: string | null;
  entity_id: string | null;
  started_at: string | null;
  first_pass: NonNullable<RunMeta['firstPass']> | null;
  counts: { databases: number; updated: number; not_present: number; retrying: number; failed: number };
  tenants: Array<{ tenant_id: string } & TenantSyncState>;
  error: string | null;
}

/** The state of a run, derived from its per-tenant fields, so retries show up as they land. */
export function describeRun(meta: RunMeta, tenants: Record<string, TenantSyncState>): RunView {
  const list = Object.entries(tenants)
    .map(([tenant_id, s]) => ({ tenant_id, ...s }))
    .sort((a, b) => a.tenant_id.localeCompare(b.tenant_id));
  const count = (...st: string[]) => list.filter((t) => st.includes(t.status)).length;
  const counts = {
    databases: meta.firstPass?.databases ?? list.length,
    updated: count('source', 'updated', 'newer'),
    not_present: count('not_present'),
    retrying: count('retrying'),
    failed: count('failed'),
  };
  const status: RunStatus = meta.error
    ? 'failed'
    : !meta.firstPass
      ? 'running'
      : counts.retrying > 0
        ? 'retrying'
        : counts.failed > 0
          ? 'failed'
          : 'completed';
  return {
    id: meta.id,
    status,
    source_tenant_id: meta.sourceTenantId,
    entity_id: meta.entityId,
    started_at: meta.startedAt,
    first_pass: meta.firstPass ?? null,
    counts,
    tenants: list,
    error: meta.error ?? null,
  };
}

export async function getRun(runs: RunStateStore, queue: Queue, id: string): Promise<RunView | undefined> {
  const state = await runs.get(id);
  if (state) return describeRun(state.meta, state.tenants);
  // Accepted by the auth service but not yet picked up by a worker.
  if (await queue.getJob(id)) {
    return {
      id,
      status: 'queued',
      source_tenant_id: null,
      entity_id: null,
      started_at: null,
      first_pass: null,
      counts: { databases: 0, updated: 0, not_present: 0, retrying: 0, failed: 0 },
      tenants: [],
      error: null,
    };
  }
  return undefined;
}
