import { Button, Label, Prompt, Select, StatusBadge, Text, Textarea, toast } from '@medusajs/ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/common/error-alert';
import { Page } from '../../components/layout/page';
import { DataTable, type DataTableColumn } from '../../components/table/data-table';
import { useDataTableQuery } from '../../components/table/use-data-table-query';
import {
  type AccessRequest,
  useAccessRequests,
  useDecideAccessRequest,
} from '../../hooks/api/access-requests';
import { useFormat } from '../../hooks/use-format';

type Filter = 'status';
const statusColor = { pending: 'orange', approved: 'green', rejected: 'red' } as const;

const who = (r: AccessRequest) => r.name || r.email || r.ip_address;

/** Approve at once; reject after a confirmation with an optional reason. Failures show here. */
export function Decision({ request }: { request: AccessRequest }) {
  const { t } = useTranslation();
  const decide = useDecideAccessRequest();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  if (request.status !== 'pending') return null;
  const done = (status: 'approved' | 'rejected') => ({
    onSuccess: () => {
      setRejecting(false);
      toast.success(t(`accessRequests.${status}`, { who: who(request) }));
    },
  });
  return (
    <div
      className="flex flex-col items-end gap-y-2"
      onClick={(e) => e.stopPropagation()}
      onKeyDown={(e) => e.stopPropagation()}
    >
      <div className="flex gap-x-2">
        <Button
          size="small"
          variant="secondary"
          onClick={() => setRejecting(true)}
          disabled={decide.isPending}
          data-testid={`reject-${request.id}`}
        >
          {t('accessRequests.reject')}
        </Button>
        <Button
          size="small"
          onClick={() => decide.mutate({ id: request.id, status: 'approved' }, done('approved'))}
          isLoading={decide.isPending && decide.variables?.status === 'approved'}
          data-testid={`approve-${request.id}`}
        >
          {t('accessRequests.approve')}
        </Button>
      </div>
      <ErrorAlert error={decide.error} className="max-w-sm text-left" />
      <Prompt open={rejecting} onOpenChange={setRejecting}>
        <Prompt.Content>
          <Prompt.Header>
            <Prompt.Title>{t('accessRequests.rejectTitle')}</Prompt.Title>
            <Prompt.Description>
              {t('accessRequests.rejectDescription', { who: who(request) })}
            </Prompt.Description>
          </Prompt.Header>
          <div className="flex flex-col gap-y-2 px-6 pb-4">
            <Label htmlFor={`reason-${request.id}`} size="small" weight="plus">
              {t('accessRequests.reason')}
            </Label>
            <Textarea
              id={`reason-${request.id}`}
              value={reason}
              maxLength={2000}
              onChange={(e) => setReason(e.target.value)}
            />
            <ErrorAlert error={decide.error} />
          </div>
          <Prompt.Footer>
            <Prompt.Cancel>{t('general.cancel')}</Prompt.Cancel>
            <Prompt.Action
              onClick={(e) => {
                e.preventDefault();
                decide.mutate(
                  { id: request.id, status: 'rejected', reason: reason.trim() || undefined },
                  done('rejected'),
                );
              }}
              data-testid={`reject-confirm-${request.id}`}
            >
              {t('accessRequests.reject')}
            </Prompt.Action>
          </Prompt.Footer>
        </Prompt.Content>
      </Prompt>
    </div>
  );
}

export function useAccessRequestColumns(): DataTableColumn<AccessRequest>[] {
  const { t } = useTranslation();
  const f = useFormat();
  return [
    {
      id: 'visitor',
      header: t('accessRequests.visitor'),
      cell: (r) => (
        <div className="flex flex-col">
          <Text size="small" weight="plus" leading="compact">
            {r.name ?? '—'}
          </Text>
          <Text size="xsmall" className="text-ui-fg-muted" leading="compact">
            {r.email ?? ''}
          </Text>
        </div>
      ),
    },
    { id: 'company', header: t('accessRequests.company'), cell: (r) => r.company ?? '—' },
    {
      id: 'ip',
      header: t('accessRequests.ip'),
      cell: (r) => <span className="font-mono">{r.ip_address}</span>,
    },
    {
      id: 'message',
      header: t('accessRequests.message'),
      className: 'max-w-[280px]',
      cell: (r) => (
        <span className="block truncate" title={r.message ?? ''}>
          {r.message ?? '—'}
        </span>
      ),
    },
    { id: 'at', header: t('accessRequests.requestedAt'), cell: (r) => f.date(r.created_at, 'datetime') },
    {
      id: 'status',
      header: t('ops.status'),
      cell: (r) => (
        <div className="flex flex-col">
          <StatusBadge color={statusColor[r.status]} data-status={r.status}>
            {t(`accessRequests.statuses.${r.status}`)}
          </StatusBadge>
          {r.approved_by && (
            <Text size="xsmall" className="text-ui-fg-muted">
              {r.approved_by}
            </Text>
          )}
        </div>
      ),
    },
    { id: 'actions', header: '', align: 'right', cell: (r) => <Decision request={r} /> },
  ];
}

/** /app/access-requests: open requests first (status filter for the rest); approve or reject. */
export function Component() {
  const { t } = useTranslation();
  const query = useDataTableQuery<Filter>({ pageSize: 20, filterKeys: ['status'] });
  const status = query.filters.status ?? 'pending';
  const list = useAccessRequests({ limit: query.pageSize, offset: query.offset, status });
  const columns = useAccessRequestColumns();
  return (
    <Page
      title={t('nav.items.accessRequests')}
      description={t('accessRequests.description')}
      testId="access-requests"
    >
      <DataTable<AccessRequest, Filter>
        columns={columns}
        rows={list.data?.access_requests}
        count={list.data?.count}
        isLoading={list.isPending}
        error={list.error}
        onRetry={() => void list.refetch()}
        rowKey={(r) => r.id}
        query={query}
        search={false}
        emptyTitle={status === 'pending' ? t('accessRequests.emptyPending') : undefined}
        toolbar={
          <div className="w-48">
            <Select
              size="small"
              value={status}
              onValueChange={(v) => query.setFilter('status', v === 'pending' ? null : v)}
            >
              <Select.Trigger aria-label={t('ops.status')} data-filter="status">
                <Select.Value />
              </Select.Trigger>
              <Select.Content>
                {(['pending', 'approved', 'rejected', 'all'] as const).map((s) => (
                  <Select.Item key={s} value={s}>
                    {t(`accessRequests.statuses.${s}`)}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select>
          </div>
        }
        testId="access-request-table"
      />
    </Page>
  );
}
