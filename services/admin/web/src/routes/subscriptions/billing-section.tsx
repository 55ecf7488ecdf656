import { runBillingBody } from '@aplt/service-documents/schemas/subscriptions';
import { Button, Input, Label, StatusBadge, Switch, Table, Text, toast } from '@medusajs/ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../components/common/empty-state';
import { ErrorAlert } from '../../components/common/error-alert';
import { SectionSpinner } from '../../components/common/full-page-spinner';
import { PageSection } from '../../components/layout/page';
import {
  type BillingRun,
  useBillingRuns,
  useBillingSettings,
  useRunBilling,
  useUpdateBillingSettings,
} from '../../hooks/api/subscriptions';
import { useFormat } from '../../hooks/use-format';

const runColours = { running: 'blue', succeeded: 'green', failed: 'red' } as const;

/** Today in the browser's calendar, as YYYY-MM-DD. */
const todayIso = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/**
 * The tenant's billing: the switch of the monthly job (with its next run), a run for a chosen
 * date (catch-up), and the latest runs with what each created and what failed.
 */
export function BillingSection() {
  const { t } = useTranslation();
  const f = useFormat();
  const settings = useBillingSettings();
  const update = useUpdateBillingSettings();
  const runs = useBillingRuns();
  const run = useRunBilling();
  const [date, setDate] = useState(todayIso);
  const [dateError, setDateError] = useState<string | null>(null);

  const start = () => {
    const parsed = runBillingBody.safeParse({ date });
    if (!parsed.success) {
      setDateError(parsed.error.issues[0]?.message ?? 'invalid');
      return;
    }
    setDateError(null);
    void run.mutateAsync(parsed.data.date).then((r) =>
      toast.success(
        t('subscriptions.billing.runDone', {
          created: String(r.created_count),
          skipped: String(r.skipped_count),
          failed: String(r.failed_count),
        }),
      ),
    );
  };

  return (
    <>
      <PageSection title={t('subscriptions.billing.title')}>
        <div className="flex flex-col gap-y-4 px-6 py-4" data-testid="billing-settings">
          <Text size="small" className="text-ui-fg-subtle">
            {t('subscriptions.billing.description')}
          </Text>
          {settings.isPending ? (
            <SectionSpinner />
          ) : settings.error ? (
            <ErrorAlert error={settings.error} onRetry={() => void settings.refetch()} />
          ) : (
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <Switch
                id="billing-enabled"
                checked={settings.data.billing_enabled}
                disabled={update.isPending}
                onCheckedChange={(on) => update.mutate(on)}
                data-testid="billing-enabled"
              />
              <Label htmlFor="billing-enabled">{t('subscriptions.billing.enabled')}</Label>
              <Text size="small" className="text-ui-fg-muted" data-testid="billing-next-run">
                {settings.data.billing_enabled
                  ? settings.data.schedule?.next_run
                    ? t('subscriptions.billing.nextRun', {
                        date: f.date(settings.data.schedule.next_run, 'datetime'),
                      })
                    : `${settings.data.pattern} (${settings.data.timezone})`
                  : t('subscriptions.billing.off')}
              </Text>
            </div>
          )}
          <ErrorAlert error={update.error} />
          <div className="flex flex-wrap items-end gap-3">
            <div className="flex flex-col gap-y-1">
              <Label htmlFor="billing-date" size="small">
                {t('subscriptions.billing.runDate')}
              </Label>
              <Input
                id="billing-date"
                size="small"
                type="date"
                value={date}
                onChange={(e) => setDate(e.target.value)}
                aria-invalid={Boolean(dateError)}
                data-testid="billing-date"
              />
            </div>
            <Button
              size="small"
              variant="secondary"
              onClick={start}
              isLoading={run.isPending}
              data-testid="billing-run"
            >
              {t('subscriptions.billing.runNow')}
            </Button>
            <Text size="xsmall" className="text-ui-fg-muted max-w-md">
              {dateError ?? t('subscriptions.billing.runHint')}
            </Text>
          </div>
          <ErrorAlert error={run.error} />
        </div>
      </PageSection>
      <PageSection title={t('subscriptions.billing.runs')}>
        {runs.isPending ? (
          <SectionSpinner />
        ) : runs.error ? (
          <ErrorAlert className="m-6" error={runs.error} onRetry={() => void runs.refetch()} />
        ) : runs.data.data.length === 0 ? (
          <EmptyState title={t('subscriptions.billing.noRuns')} />
        ) : (
          <Table data-testid="billing-runs">
            <Table.Header>
              <Table.Row>
                <Table.HeaderCell>{t('subscriptions.billing.started')}</Table.HeaderCell>
                <Table.HeaderCell>{t('subscriptions.billing.date')}</Table.HeaderCell>
                <Table.HeaderCell>{t('subscriptions.billing.trigger')}</Table.HeaderCell>
                <Table.HeaderCell>{t('subscriptions.fields.status')}</Table.HeaderCell>
                <Table.HeaderCell>{t('subscriptions.billing.created')}</Table.HeaderCell>
                <Table.HeaderCell className="text-right">
                  {t('subscriptions.billing.skipped')}
                </Table.HeaderCell>
                <Table.HeaderCell className="text-right">
                  {t('subscriptions.billing.failed')}
                </Table.HeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {runs.data.data.map((r) => (
                <RunRow key={r.id} run={r} />
              ))}
            </Table.Body>
          </Table>
        )}
      </PageSection>
    </>
  );
}

function RunRow({ run }: { run: BillingRun }) {
  const { t } = useTranslation();
  const f = useFormat();
  return (
    <Table.Row data-testid="billing-run-row">
      <Table.Cell>{f.date(run.started_at, 'datetime')}</Table.Cell>
      <Table.Cell>{f.date(run.billing_date)}</Table.Cell>
      <Table.Cell>{t(`subscriptions.billing.triggers.${run.trigger}`)}</Table.Cell>
      <Table.Cell>
        <StatusBadge color={runColours[run.status]}>
          {t(`subscriptions.billing.runStatus.${run.status}`)}
        </StatusBadge>
      </Table.Cell>
      <Table.Cell>
        <span className="flex flex-wrap gap-x-2">
          {run.created.length === 0
            ? '—'
            : run.created.map((c) => (
                <Link
                  key={c.invoice_id}
                  to={`/invoices/${c.invoice_id}`}
                  className="font-mono text-ui-fg-interactive"
                >
                  {c.invoice_number}
                </Link>
              ))}
        </span>
        {run.failures.map((x, i) => (
          <Text key={i} size="xsmall" className="text-ui-fg-error">
            {x.subscription_id ? `#${x.subscription_id}: ` : ''}
            {x.message}
          </Text>
        ))}
      </Table.Cell>
      <Table.Cell className="text-right tabular-nums">{f.number(run.skipped_count)}</Table.Cell>
      <Table.Cell className="text-right tabular-nums">{f.number(run.failed_count)}</Table.Cell>
    </Table.Row>
  );
}
