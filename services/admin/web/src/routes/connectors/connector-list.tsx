import { PlaySolid } from '@medusajs/icons';
import { Badge, Button, Table, Text, toast } from '@medusajs/ui';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ErrorAlert } from '../../components/common/error-alert';
import { SectionSpinner } from '../../components/common/full-page-spinner';
import { Page, PageSection } from '../../components/layout/page';
import { ReadOnlyNote } from '../../components/operations/read-only-note';
import { RunProgress, RunStatusBadge } from '../../components/operations/run-progress';
import { DataTable, type DataTableColumn } from '../../components/table/data-table';
import { useDataTableQuery } from '../../components/table/use-data-table-query';
import {
  type ConnectorRow,
  isWorking,
  type Run,
  useConnectorRuns,
  useConnectors,
  useStartConnector,
} from '../../hooks/api/connectors';
import { useFeatures } from '../../hooks/api/features';
import { useTenant } from '../../hooks/api/tenant';
import { useFormat } from '../../hooks/use-format';
import { CommerceSyncPanel, TenantUpdatePanel } from './sync-panels';

/** One connector's row: state, last run with its moving progress bar, the run button on the master. */
function ConnectorTableRow({ c, canRun }: { c: ConnectorRow; canRun: boolean }) {
  const { t } = useTranslation();
  const f = useFormat();
  const start = useStartConnector();
  const working = isWorking(c.last_run);
  return (
    <>
      <Table.Row data-connector={c.name} data-status={c.status}>
        <Table.Cell>
          <span className="font-mono">{c.name}</span>
        </Table.Cell>
        <Table.Cell>{c.supplier_code}</Table.Cell>
        <Table.Cell>{t(`connectors.kinds.${c.kind as 'products'}`)}</Table.Cell>
        <Table.Cell>
          <Badge size="2xsmall">{c.format}</Badge>
        </Table.Cell>
        <Table.Cell>
          <RunStatusBadge status={c.status} />
        </Table.Cell>
        <Table.Cell className="whitespace-nowrap">
          {c.last_run ? (
            <Link to={`runs/${c.last_run.id}`} className="text-ui-fg-interactive hover:underline">
              {f.date(c.last_run.started_at ?? c.last_run.queued_at, 'datetime')}
            </Link>
          ) : (
            <Text size="small" className="text-ui-fg-muted">
              {t('connectors.noRun')}
            </Text>
          )}
        </Table.Cell>
        <Table.Cell className="w-[220px]">
          {c.last_run && <RunProgress run={c.last_run} compact />}
        </Table.Cell>
        {canRun && (
          <Table.Cell className="text-right">
            <Button
              size="small"
              variant="secondary"
              disabled={working}
              isLoading={start.isPending}
              onClick={() =>
                start.mutate(c.name, {
                  onSuccess: () => toast.success(t('connectors.runStarted', { connector: c.name })),
                })
              }
              data-testid={`run-${c.name}`}
            >
              <PlaySolid />
              {t('connectors.run')}
            </Button>
          </Table.Cell>
        )}
      </Table.Row>
      {start.error ? (
        <Table.Row>
          <td colSpan={8} className="px-6 py-2">
            <ErrorAlert error={start.error} />
          </td>
        </Table.Row>
      ) : null}
    </>
  );
}

function RunHistory() {
  const { t } = useTranslation();
  const f = useFormat();
  const navigate = useNavigate();
  const query = useDataTableQuery<'status'>({ pageSize: 10, filterKeys: ['status'], prefix: 'runs_' });
  const runs = useConnectorRuns(query.apiQuery);
  const columns: DataTableColumn<Run>[] = [
    { id: 'id', header: '#', cell: (r) => <span className="font-mono">{r.id}</span> },
    {
      id: 'connector',
      header: t('connectors.connector'),
      cell: (r) => <span className="font-mono">{r.connector}</span>,
    },
    { id: 'status', header: t('ops.status'), cell: (r) => <RunStatusBadge status={r.status} /> },
    { id: 'queued', header: t('run.queuedAt'), cell: (r) => f.date(r.queued_at, 'datetime') },
    { id: 'read', header: t('run.rowsRead'), align: 'right', cell: (r) => f.number(r.rows_read) },
    { id: 'rejected', header: t('run.rowsRejected'), align: 'right', cell: (r) => f.number(r.rows_rejected) },
    {
      id: 'progress',
      header: t('run.progress'),
      className: 'w-[200px]',
      cell: (r) => <RunProgress run={r} compact />,
    },
  ];
  return (
    <PageSection title={t('connectors.runs')}>
      <DataTable<Run, 'status'>
        columns={columns}
        rows={runs.data?.data}
        count={runs.data?.count}
        isLoading={runs.isPending}
        error={runs.error}
        onRetry={() => void runs.refetch()}
        rowKey={(r) => r.id}
        onRowOpen={(r) => void navigate(`runs/${r.id}`)}
        query={query}
        search={false}
        filters={[
          {
            key: 'status',
            label: t('ops.status'),
            options: (['queued', 'running', 'succeeded', 'failed'] as const).map((s) => ({
              value: s,
              label: t(`run.status.${s}`),
            })),
          },
        ]}
        testId="run-table"
      />
    </PageSection>
  );
}

/**
 * /app/connectors: the 32 connectors with state, last run and progress; the run button on the
 * master's host (others read the master's state, with a note); the commerce sync of this tenant;
 * the tenant update on the master; every run below.
 */
export function Component() {
  const { t } = useTranslation();
  const connectors = useConnectors();
  const tenant = useTenant();
  const features = useFeatures();
  const isMaster = tenant.data?.tenant.kind === 'master';
  const [supplier, setSupplier] = useState<string | null>(null);
  const rows = useMemo(
    () => (connectors.data?.connectors ?? []).filter((c) => !supplier || c.supplier_code === supplier),
    [connectors.data, supplier],
  );
  const suppliers = [...new Set((connectors.data?.connectors ?? []).map((c) => c.supplier_code))];

  return (
    <Page
      title={t('nav.items.connectors')}
      description={t('connectors.description')}
      testId="connectors"
      sections={
        <>
          <CommerceSyncPanel />
          {features.data?.features.includes('product_copy') && <TenantUpdatePanel />}
          <RunHistory />
        </>
      }
    >
      {tenant.data && !isMaster && (
        <ReadOnlyNote testId="connectors-read-only">{t('connectors.readOnly')}</ReadOnlyNote>
      )}
      {connectors.isPending ? (
        <SectionSpinner />
      ) : connectors.isError ? (
        <div className="px-6 py-4">
          <ErrorAlert error={connectors.error} onRetry={() => void connectors.refetch()} />
        </div>
      ) : (
        <>
          <div className="flex flex-wrap gap-1 px-6 py-3" role="group" aria-label={t('connectors.supplier')}>
            <Button
              size="small"
              variant={supplier === null ? 'primary' : 'transparent'}
              onClick={() => setSupplier(null)}
            >
              {t('general.all')}
            </Button>
            {suppliers.map((s) => (
              <Button
                key={s}
                size="small"
                variant={supplier === s ? 'primary' : 'transparent'}
                onClick={() => setSupplier(s)}
                data-supplier={s}
              >
                {s}
              </Button>
            ))}
          </div>
          <div className="overflow-x-auto">
            <Table data-testid="connector-table">
              <Table.Header>
                <Table.Row>
                  <Table.HeaderCell>{t('connectors.connector')}</Table.HeaderCell>
                  <Table.HeaderCell>{t('connectors.supplier')}</Table.HeaderCell>
                  <Table.HeaderCell>{t('connectors.kind')}</Table.HeaderCell>
                  <Table.HeaderCell>{t('connectors.format')}</Table.HeaderCell>
                  <Table.HeaderCell>{t('ops.status')}</Table.HeaderCell>
                  <Table.HeaderCell>{t('connectors.lastRun')}</Table.HeaderCell>
                  <Table.HeaderCell>{t('run.progress')}</Table.HeaderCell>
                  {isMaster && <Table.HeaderCell />}
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {rows.map((c) => (
                  <ConnectorTableRow key={c.name} c={c} canRun={isMaster} />
                ))}
              </Table.Body>
            </Table>
          </div>
        </>
      )}
    </Page>
  );
}
