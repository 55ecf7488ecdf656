import type { RunView } from '@aplt/service-catalog/schemas/runs';

import type { Json } from '../../lib/json';
import { queryKeysFactory } from '../../lib/query-key-factory';
import { adminFetch, useAdminMutation, useAdminQuery } from './use-admin-query';

/**
 * Connector runs, the commerce sync and the tenant update (catalog service). Every run has the
 * same progress fields (`percent` 0-100, `phase`, `done` of `total` in `unit`); a page follows a
 * working run by polling it about once a second, as the run writes its progress.
 */
export type Run = Json<RunView>;
export type RunState = 'idle' | 'queued' | 'running';

export interface ConnectorRow {
  name: string;
  supplier_code: string;
  kind: string;
  format: string;
  status: string;
  last_run: Run | null;
}
export interface ConnectorReject {
  row_number: number | null;
  key: string | null;
  reason: string;
  raw: unknown;
}
export interface RunPage {
  data: Run[];
  count: number;
  limit: number;
  offset: number;
}

export const isWorking = (run: Pick<Run, 'status'> | null | undefined) =>
  run?.status === 'queued' || run?.status === 'running';

/** Poll every second while `working` says so, not at all otherwise. */
const pollWhile =
  <T>(working: (data: T | undefined) => boolean) =>
  (query: { state: { data: T | undefined } }) =>
    working(query.state.data) ? 1000 : false;

export const connectorsQueryKeys = queryKeysFactory('connectors');
export const runsQueryKeys = queryKeysFactory('connector-runs');
export const commerceSyncQueryKeys = queryKeysFactory('commerce-sync');
export const tenantUpdateQueryKeys = queryKeysFactory('tenant-update');

export const useConnectors = () =>
  useAdminQuery<{ connectors: ConnectorRow[]; count: number }>('/admin/connectors/sync', undefined, {
    queryKey: connectorsQueryKeys.lists(),
    refetchInterval: pollWhile((d?: { connectors: ConnectorRow[] }) =>
      Boolean(d?.connectors.some((c) => isWorking(c.last_run))),
    ),
  });

export const useConnectorRuns = (query: {
  limit: number;
  offset: number;
  connector?: string;
  status?: string;
}) =>
  useAdminQuery<RunPage>('/admin/connectors/sync/runs', query, {
    queryKey: runsQueryKeys.list(query),
    placeholderData: (previous) => previous,
    refetchInterval: pollWhile((d?: RunPage) => Boolean(d?.data.some(isWorking))),
  });

export const useConnectorRun = (id: number | string | null) =>
  useAdminQuery<{ run: Run; rejects: ConnectorReject[] }>(`/admin/connectors/sync/runs/${id}`, undefined, {
    queryKey: runsQueryKeys.detail(id ?? 'none'),
    enabled: id !== null,
    refetchInterval: pollWhile((d?: { run: Run }) => isWorking(d?.run)),
  });

export const useStartConnector = () =>
  useAdminMutation(
    (connector: string) =>
      adminFetch<{ job_id: string; run_id: number; connector: string; status: 'queued' }>(
        `/admin/connectors/sync?connector=${encodeURIComponent(connector)}`,
        'POST',
        // The SDK sends JSON's content type on every write; an empty JSON body is refused.
        {},
      ),
    { invalidates: [connectorsQueryKeys.all, runsQueryKeys.lists()] },
  );

export const useCommerceSync = () =>
  useAdminQuery<{ state: RunState; last_run: Run | null }>('/admin/connectors/commerce-sync', undefined, {
    queryKey: commerceSyncQueryKeys.detail('state'),
    refetchInterval: pollWhile((d?: { state: RunState }) => d?.state === 'queued' || d?.state === 'running'),
  });

export const useStartCommerceSync = () =>
  useAdminMutation(
    (full: boolean) =>
      adminFetch<{ job_id: string; run_id: number; state: 'queued' }>(
        `/admin/connectors/commerce-sync${full ? '?full=true' : ''}`,
        'POST',
        {},
      ),
    { invalidates: [commerceSyncQueryKeys.all] },
  );

export interface TenantUpdateState {
  tenants: Array<{ id: string; name: string; kind: string; last_update_at: string | null }>;
  state: RunState;
  last_run: Run | null;
}

export const useTenantUpdate = (options: { enabled?: boolean } = {}) =>
  useAdminQuery<TenantUpdateState>('/admin/tenant-update', undefined, {
    queryKey: tenantUpdateQueryKeys.detail('state'),
    refetchInterval: pollWhile((d?: TenantUpdateState) => d?.state === 'queued' || d?.state === 'running'),
    ...options,
  });

export const useStartTenantUpdate = () =>
  useAdminMutation(
    (tenantIds: string[]) =>
      adminFetch<{ job_id: string; run_id: number; state: 'queued'; tenant_ids: string[] }>(
        '/admin/tenant-update',
        'POST',
        { tenant_ids: tenantIds },
      ),
    { invalidates: [tenantUpdateQueryKeys.all] },
  );
