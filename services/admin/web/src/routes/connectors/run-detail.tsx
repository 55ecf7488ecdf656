import { Table, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { EmptyState } from '../../components/common/empty-state';
import { ErrorPanel } from '../../components/common/error-boundary';
import { SectionSpinner } from '../../components/common/full-page-spinner';
import { Page, PageSection } from '../../components/layout/page';
import { DetailList, Figures } from '../../components/operations/detail-list';
import { RunProgress, RunStatusBadge } from '../../components/operations/run-progress';
import { useConnectorRun } from '../../hooks/api/connectors';
import { useFormat } from '../../hooks/use-format';

/** /app/connectors/runs/:id: one run, its progress (followed while it works) and its rejected rows. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const { id = '' } = useParams();
  const detail = useConnectorRun(id);
  if (detail.isPending) return <SectionSpinner />;
  if (detail.isError) return <ErrorPanel error={detail.error} onRetry={() => void detail.refetch()} />;
  const { run, rejects } = detail.data;
  return (
    <Page
      title={t('connectors.runTitle', { id: String(run.id) })}
      description={
        <span className="flex items-center gap-x-2">
          <span className="font-mono">{run.connector}</span>
          <RunStatusBadge status={run.status} />
        </span>
      }
      testId="run-detail"
      sections={
        <PageSection title={t('connectors.rejects')}>
          {rejects.length === 0 ? (
            <EmptyState title={t('connectors.rejectsNone')} />
          ) : (
            <>
              <Text size="small" className="text-ui-fg-subtle px-6 py-3">
                {t('connectors.rejectsShown', { count: rejects.length })}
              </Text>
              <div className="overflow-x-auto">
                <Table data-testid="reject-table">
                  <Table.Header>
                    <Table.Row>
                      <Table.HeaderCell className="text-right">{t('connectors.rowNumber')}</Table.HeaderCell>
                      <Table.HeaderCell>{t('connectors.key')}</Table.HeaderCell>
                      <Table.HeaderCell>{t('connectors.reason')}</Table.HeaderCell>
                      <Table.HeaderCell>{t('connectors.raw')}</Table.HeaderCell>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {rejects.map((r, i) => (
                      <Table.Row key={i}>
                        <Table.Cell className="text-right tabular-nums">{r.row_number ?? '—'}</Table.Cell>
                        <Table.Cell className="font-mono">{r.key ?? '—'}</Table.Cell>
                        <Table.Cell className="whitespace-normal">{r.reason}</Table.Cell>
                        <Table.Cell>
                          <code
                            className="text-ui-fg-subtle block max-w-[420px] truncate font-mono text-xs"
                            title={JSON.stringify(r.raw)}
                          >
                            {JSON.stringify(r.raw)}
                          </code>
                        </Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </Table>
              </div>
            </>
          )}
        </PageSection>
      }
    >
      <div className="px-6 py-4">
        <RunProgress run={run} />
      </div>
      <Figures
        items={[
          { label: t('run.rowsRead'), value: f.number(run.rows_read) },
          { label: t('run.rowsInserted'), value: f.number(run.rows_inserted) },
          { label: t('run.rowsUpdated'), value: f.number(run.rows_updated) },
          { label: t('run.rowsRejected'), value: f.number(run.rows_rejected), testId: 'run-rejected' },
        ]}
      />
      <DetailList
        rows={[
          { label: t('run.queuedAt'), value: f.date(run.queued_at, 'datetime') },
          { label: t('run.startedAt'), value: f.date(run.started_at, 'datetime') },
          { label: t('run.finishedAt'), value: f.date(run.finished_at, 'datetime') },
          { label: t('run.error'), value: run.error },
        ]}
      />
    </Page>
  );
}
