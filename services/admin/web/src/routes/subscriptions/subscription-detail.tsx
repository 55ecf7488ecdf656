import { PencilSquare } from '@medusajs/icons';
import { Button, Table, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../components/common/empty-state';
import { ErrorAlert } from '../../components/common/error-alert';
import { ErrorPanel } from '../../components/common/error-boundary';
import { SectionSpinner } from '../../components/common/full-page-spinner';
import { Page, PageSection } from '../../components/layout/page';
import { DetailList } from '../../components/operations/detail-list';
import { formatDecimal, lineEstimate, sumDecimals } from '../../components/sales/decimal';
import {
  usePauseSubscription,
  useSubscription,
  useSubscriptionInvoices,
} from '../../hooks/api/subscriptions';
import { useFormat } from '../../hooks/use-format';
import { subscriptionCustomer, SubscriptionStatus } from './subscription-status';

/** /app/subscriptions/:id: the subscription, its lines, pause/resume, and the invoices it made. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const { id = '' } = useParams();
  const subscription = useSubscription(id);
  const invoices = useSubscriptionInvoices(id);
  const pause = usePauseSubscription(id);

  if (subscription.isPending) return <SectionSpinner />;
  if (subscription.isError)
    return <ErrorPanel error={subscription.error} onRetry={() => void subscription.refetch()} />;
  const s = subscription.data;
  const lineTotals = s.lines.map((l) => lineEstimate(l.quantity, l.unit_price, '0', l.discount_percent));
  const paused = s.status === 'paused';

  return (
    <Page
      title={s.description}
      testId="subscription-detail"
      description={`#${s.id} · ${subscriptionCustomer(s)}`}
      actions={
        <>
          <Button
            size="small"
            variant="secondary"
            onClick={() => pause.mutate(!paused)}
            isLoading={pause.isPending}
            disabled={s.status === 'ended'}
            data-testid={paused ? 'subscription-resume' : 'subscription-pause'}
          >
            {paused ? t('subscriptions.resume') : t('subscriptions.pause')}
          </Button>
          <Button size="small" variant="secondary" asChild>
            <Link to="edit" data-testid="subscription-edit">
              <PencilSquare />
              {t('ops.edit')}
            </Link>
          </Button>
        </>
      }
      sections={
        <>
          <PageSection title={t('subscriptions.lines.title')}>
            <Table data-testid="subscription-detail-lines">
              <Table.Header>
                <Table.Row>
                  <Table.HeaderCell>{t('subscriptions.lines.description')}</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">
                    {t('subscriptions.lines.quantity')}
                  </Table.HeaderCell>
                  <Table.HeaderCell className="text-right">
                    {t('subscriptions.lines.unitPrice')}
                  </Table.HeaderCell>
                  <Table.HeaderCell className="text-right">
                    {t('subscriptions.lines.discount')}
                  </Table.HeaderCell>
                  <Table.HeaderCell className="text-right">
                    {t('subscriptions.lines.vatRate')}
                  </Table.HeaderCell>
                  <Table.HeaderCell className="text-right">{t('subscriptions.lines.total')}</Table.HeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {s.lines.map((l, i) => (
                  <Table.Row key={l.id}>
                    <Table.Cell>{l.description}</Table.Cell>
                    <Table.Cell className="text-right tabular-nums">{f.number(l.quantity)}</Table.Cell>
                    <Table.Cell className="text-right tabular-nums">{f.money(l.unit_price)}</Table.Cell>
                    <Table.Cell className="text-right tabular-nums">
                      {f.number(l.discount_percent)}
                    </Table.Cell>
                    <Table.Cell className="text-right tabular-nums">{f.number(l.vat_rate)}</Table.Cell>
                    <Table.Cell className="text-right tabular-nums">
                      {lineTotals[i] ? f.money(lineTotals[i]) : '—'}
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table>
            <div className="flex justify-end px-6 py-3">
              <Text size="small" weight="plus" className="tabular-nums" data-testid="subscription-amount">
                {t('subscriptions.fields.amount')}: {f.money(formatDecimal(sumDecimals(lineTotals), 2))}
              </Text>
            </div>
          </PageSection>
          <PageSection title={t('subscriptions.invoices')}>
            {invoices.isPending ? (
              <SectionSpinner />
            ) : invoices.error ? (
              <ErrorAlert className="m-6" error={invoices.error} onRetry={() => void invoices.refetch()} />
            ) : invoices.data.data.length === 0 ? (
              <EmptyState title={t('subscriptions.noInvoices')} />
            ) : (
              <Table data-testid="subscription-invoices">
                <Table.Header>
                  <Table.Row>
                    <Table.HeaderCell>{t('sales.fields.number')}</Table.HeaderCell>
                    <Table.HeaderCell>{t('subscriptions.fields.period')}</Table.HeaderCell>
                    <Table.HeaderCell>{t('sales.fields.date')}</Table.HeaderCell>
                    <Table.HeaderCell className="text-right">{t('sales.fields.total')}</Table.HeaderCell>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {invoices.data.data.map((inv) => (
                    <Table.Row key={inv.id}>
                      <Table.Cell>
                        <Link to={`/invoices/${inv.id}`} className="font-mono text-ui-fg-interactive">
                          {inv.invoice_number}
                        </Link>
                      </Table.Cell>
                      <Table.Cell>
                        {f.date(inv.period_start)} – {f.date(inv.period_end)}
                      </Table.Cell>
                      <Table.Cell>{f.date(inv.issue_date)}</Table.Cell>
                      <Table.Cell className="text-right tabular-nums">{f.money(inv.total)}</Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table>
            )}
          </PageSection>
        </>
      }
    >
      <DetailList
        rows={[
          {
            label: t('subscriptions.fields.status'),
            value: (
              <span className="flex items-center gap-x-2" data-testid="subscription-status">
                <SubscriptionStatus status={s.status} />
                {s.paused_at && (
                  <span className="text-ui-fg-subtle">
                    {t('subscriptions.pausedSince', { date: f.date(s.paused_at) })}
                  </span>
                )}
              </span>
            ),
          },
          {
            label: t('subscriptions.fields.customer'),
            value: subscriptionCustomer(s),
            testId: 'subscription-customer',
          },
          { label: t('subscriptions.fields.interval'), value: t(`subscriptions.interval.${s.interval}`) },
          { label: t('subscriptions.fields.start'), value: f.date(s.start_date) },
          { label: t('subscriptions.fields.end'), value: s.end_date ? f.date(s.end_date) : '—' },
          {
            label: t('subscriptions.fields.paymentTerm'),
            value: s.payment_term_days === null ? '—' : f.number(s.payment_term_days),
          },
          { label: t('subscriptions.fields.reference'), value: s.reference ?? '—' },
          { label: t('subscriptions.fields.notes'), value: s.notes ?? '—' },
        ]}
      />
      <ErrorAlert className="mx-6 my-3" error={pause.error} />
    </Page>
  );
}
