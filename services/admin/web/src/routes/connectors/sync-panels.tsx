import { ArrowPath } from '@medusajs/icons';
import { Button, Checkbox, Label, Table, Text, toast } from '@medusajs/ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/common/error-alert';
import { SectionSpinner } from '../../components/common/full-page-spinner';
import { PageSection } from '../../components/layout/page';
import { ReadOnlyNote } from '../../components/operations/read-only-note';
import { RunProgress, RunStatusBadge } from '../../components/operations/run-progress';
import {
  type Run,
  useCommerceSync,
  useStartCommerceSync,
  useStartTenantUpdate,
  useTenantUpdate,
} from '../../hooks/api/connectors';
import { useTenant } from '../../hooks/api/tenant';
import { useFormat } from '../../hooks/use-format';

/** The last run of a sync: state, when, and its progress bar. */
function LastRun({ run, testId }: { run: Run | null; testId: string }) {
  const { t } = useTranslation();
  const f = useFormat();
  if (!run) {
    return (
      <Text size="small" className="text-ui-fg-muted px-6 py-4">
        {t('connectors.noRun')}
      </Text>
    );
  }
  return (
    <div className="flex flex-col gap-y-2 px-6 py-4" data-testid={testId}>
      <div className="flex items-center justify-between gap-x-2">
        <span className="flex items-center gap-x-2">
          <RunStatusBadge status={run.status} />
          <Text size="small" className="text-ui-fg-subtle">
            #{run.id} · {f.date(run.started_at ?? run.queued_at, 'datetime')}
          </Text>
        </span>
      </div>
      <RunProgress run={run} />
      {run.error && (
        <Text size="small" className="text-ui-fg-error">
          {run.error}
        </Text>
      )}
    </div>
  );
}

/** The commerce sync of this tenant: start (changed products, or everything) and follow it. */
export function CommerceSyncPanel() {
  const { t } = useTranslation();
  const sync = useCommerceSync();
  const start = useStartCommerceSync();
  const busy = sync.data?.state === 'queued' || sync.data?.state === 'running';
  const run = (full: boolean) =>
    start.mutate(full, { onSuccess: () => toast.success(t('connectors.commerceSyncStarted')) });
  return (
    <PageSection
      title={t('connectors.commerceSync')}
      actions={
        <>
          <Button
            size="small"
            variant="secondary"
            disabled={busy}
            onClick={() => run(true)}
            data-testid="commerce-sync-full"
          >
            {t('connectors.commerceSyncFull')}
          </Button>
          <Button
            size="small"
            variant="secondary"
            disabled={busy}
            isLoading={start.isPending}
            onClick={() => run(false)}
            data-testid="commerce-sync-start"
          >
            <ArrowPath />
            {t('connectors.commerceSyncStart')}
          </Button>
        </>
      }
    >
      <Text size="small" className="text-ui-fg-subtle px-6 py-3">
        {t('connectors.commerceSyncDescription')}
      </Text>
      {start.error ? (
        <div className="px-6 py-3">
          <ErrorAlert error={start.error} />
        </div>
      ) : null}
      {sync.isPending ? (
        <SectionSpinner />
      ) : sync.isError ? (
        <div className="px-6 py-3">
          <ErrorAlert error={sync.error} onRetry={() => void sync.refetch()} />
        </div>
      ) : (
        <LastRun run={sync.data.last_run} testId="commerce-sync-run" />
      )}
    </PageSection>
  );
}

/**
 * The tenant update (the master's catalog into chosen tenants). Only the master's admins may run
 * it, on the master's host; elsewhere the section says so and asks nothing of the API.
 */
export function TenantUpdatePanel() {
  const { t } = useTranslation();
  const f = useFormat();
  const tenant = useTenant();
  const isMaster = tenant.data?.tenant.kind === 'master';
  const update = useTenantUpdate({ enabled: isMaster });
  const start = useStartTenantUpdate();
  const [chosen, setChosen] = useState<string[]>([]);
  const [missing, setMissing] = useState(false);
  const busy = update.data?.state === 'queued' || update.data?.state === 'running';
  if (!tenant.data) return null;
  if (!isMaster) {
    return (
      <PageSection title={t('connectors.tenantUpdate')}>
        <ReadOnlyNote testId="tenant-update-master-only">
          {t('connectors.tenantUpdateMasterOnly')}
        </ReadOnlyNote>
      </PageSection>
    );
  }
  const tenants = update.data?.tenants ?? [];
  const toggle = (id: string, on: boolean) => {
    setMissing(false);
    setChosen((c) => (on ? [...c, id] : c.filter((x) => x !== id)));
  };
  const submit = () => {
    if (chosen.length === 0) {
      setMissing(true);
      return;
    }
    start.mutate(chosen, { onSuccess: () => toast.success(t('connectors.tenantUpdateStarted')) });
  };
  return (
    <PageSection
      title={t('connectors.tenantUpdate')}
      actions={
        <Button
          size="small"
          variant="secondary"
          disabled={busy}
          isLoading={start.isPending}
          onClick={submit}
          data-testid="tenant-update-start"
        >
          {t('connectors.tenantUpdateStart')}
        </Button>
      }
    >
      <Text size="small" className="text-ui-fg-subtle px-6 py-3">
        {t('connectors.tenantUpdateDescription')}
      </Text>
      {missing && (
        <Text size="small" className="text-ui-fg-error px-6 py-2" role="alert">
          {t('connectors.tenantUpdateChoose')}
        </Text>
      )}
      {start.error ? (
        <div className="px-6 py-3">
          <ErrorAlert error={start.error} />
        </div>
      ) : null}
      {update.isPending ? (
        <SectionSpinner />
      ) : update.isError ? (
        <div className="px-6 py-3">
          <ErrorAlert error={update.error} onRetry={() => void update.refetch()} />
        </div>
      ) : (
        <>
          <Table data-testid="tenant-update-tenants">
            <Table.Header>
              <Table.Row>
                <Table.HeaderCell className="w-10" />
                <Table.HeaderCell>{t('connectors.tenant')}</Table.HeaderCell>
                <Table.HeaderCell>{t('connectors.lastUpdate')}</Table.HeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {tenants.map((x) => (
                <Table.Row key={x.id}>
                  <Table.Cell>
                    <Checkbox
                      id={`tenant-${x.id}`}
                      checked={chosen.includes(x.id)}
                      onCheckedChange={(v) => toggle(x.id, v === true)}
                      data-tenant={x.id}
                    />
                  </Table.Cell>
                  <Table.Cell>
                    <Label htmlFor={`tenant-${x.id}`} size="small">
                      {x.name} <span className="text-ui-fg-muted font-mono">{x.id}</span>
                    </Label>
                  </Table.Cell>
                  <Table.Cell>
                    {x.last_update_at ? f.date(x.last_update_at, 'datetime') : t('connectors.never')}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table>
          <LastRun run={update.data.last_run} testId="tenant-update-run" />
        </>
      )}
    </PageSection>
  );
}
