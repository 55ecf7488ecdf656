import { Table } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../components/common/empty-state';
import { ErrorAlert } from '../../components/common/error-alert';
import { SectionSpinner } from '../../components/common/full-page-spinner';
import { Page, PageSection } from '../../components/layout/page';
import { Fields, Totals } from '../../components/sales/detail';
import { DocumentChain } from '../../components/sales/document-chain';
import { formatDecimal, parseDecimal } from '../../components/sales/decimal';
import { DocumentStatus } from '../../components/sales/status-badge';
import { usePayment } from '../../hooks/api/payments';
import { useFormat } from '../../hooks/use-format';

/** /app/payments/:id: a payment, the invoices it was allocated to (links), its unapplied credit. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const { id = '' } = useParams();
  const payment = usePayment(id);
  if (payment.error) return <ErrorAlert error={payment.error} onRetry={() => void payment.refetch()} />;
  if (!payment.data) return <SectionSpinner />;
  const p = payment.data;
  const unallocated = formatDecimal((parseDecimal(p.amount) ?? 0n) - (parseDecimal(p.allocated_total) ?? 0n));
  return (
    <Page
      title={p.payment_number}
      description={p.reference ?? undefined}
      testId="payment-detail"
      actions={<DocumentStatus kind="payment" status={p.status} />}
      sections={
        <>
          <PageSection title={t('payments.allocations')}>
            {p.allocations.length === 0 ? (
              <EmptyState title={t('payments.noAllocations')} />
            ) : (
              <Table data-testid="payment-allocations">
                <Table.Header>
                  <Table.Row>
                    <Table.HeaderCell>{t('sales.docType.invoice')}</Table.HeaderCell>
                    <Table.HeaderCell>{t('payments.allocatedAt')}</Table.HeaderCell>
                    <Table.HeaderCell className="text-right">{t('payments.fields.amount')}</Table.HeaderCell>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {p.allocations.map((a) => (
                    <Table.Row key={a.id} data-allocation={a.invoice_number}>
                      <Table.Cell>
                        <Link
                          className="text-ui-fg-interactive hover:underline"
                          to={`/invoices/${a.invoice_id}`}
                        >
                          {a.invoice_number}
                        </Link>
                      </Table.Cell>
                      <Table.Cell>{f.date(a.allocated_at, 'datetime')}</Table.Cell>
                      <Table.Cell className="text-right">{f.money(a.amount)}</Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table>
            )}
            <Totals
              rows={[
                { label: t('payments.fields.amount'), value: f.money(p.amount) },
                { label: t('payments.allocatedTotal'), value: f.money(p.allocated_total) },
                {
                  label: t('payments.unallocated'),
                  value: f.money(unallocated),
                  strong: true,
                  testId: 'payment-unallocated',
                },
                p.unapplied_credit
                  ? { label: t('payments.creditLeft'), value: f.money(p.unapplied_credit.remaining_amount) }
                  : null,
              ]}
            />
          </PageSection>
          <PageSection title={t('sales.chain.title')}>
            <DocumentChain type="payment" id={p.id} />
          </PageSection>
        </>
      }
    >
      <Fields
        items={[
          {
            label: t('sales.fields.customer'),
            value: p.customer_id ? (
              <Link className="text-ui-fg-interactive hover:underline" to={`/customers/${p.customer_id}`}>
                {p.customer_name ?? `#${p.customer_id}`}
              </Link>
            ) : null,
          },
          { label: t('payments.fields.date'), value: f.date(p.payment_date) },
          {
            label: t('payments.fields.method'),
            value: t(`payments.method.${p.method}` as 'payments.method.cash'),
          },
          { label: t('sales.fields.reference'), value: p.reference },
          { label: t('payments.fields.bankAccount'), value: p.bank_account },
          { label: t('payments.fields.notes'), value: p.notes },
        ]}
      />
    </Page>
  );
}
