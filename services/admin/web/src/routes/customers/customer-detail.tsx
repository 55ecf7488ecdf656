import { PencilSquare } from '@medusajs/icons';
import { Badge, Button, Table, Text } from '@medusajs/ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ErrorPanel } from '../../components/common/error-boundary';
import { SectionSpinner } from '../../components/common/full-page-spinner';
import { EmptyState } from '../../components/common/empty-state';
import { Page, PageSection } from '../../components/layout/page';
import { ActiveBadge } from '../../components/operations/active-badge';
import { DetailList, Figures } from '../../components/operations/detail-list';
import { useCustomer } from '../../hooks/api/customers';
import { useFormat } from '../../hooks/use-format';
import { EditCustomerDrawer } from './customer-form';
import { customerName } from './customer-list';

/** /app/customers/:id: the record, balances, document counts, recent documents; edit in a drawer. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const { id = '' } = useParams();
  const customer = useCustomer(id);
  const [editing, setEditing] = useState(false);

  if (customer.isPending) return <SectionSpinner />;
  if (customer.isError) return <ErrorPanel error={customer.error} onRetry={() => void customer.refetch()} />;
  const c = customer.data;
  const name = customerName(c);
  const address = [
    c.address_line1,
    c.address_line2,
    [c.postal_code, c.city].filter(Boolean).join(' '),
    c.country,
  ]
    .filter(Boolean)
    .join(', ');

  return (
    <Page
      title={name}
      testId="customer-detail"
      description={
        <span className="flex items-center gap-x-2">
          <span className="font-mono">{c.customer_number ?? '—'}</span>
          <ActiveBadge active={c.is_active} />
        </span>
      }
      actions={
        <Button
          size="small"
          variant="secondary"
          onClick={() => setEditing(true)}
          data-testid="customer-edit-open"
        >
          <PencilSquare />
          {t('ops.edit')}
        </Button>
      }
      sections={
        <>
          <PageSection title={t('ops.details')}>
            <DetailList
              rows={[
                { label: t('customers.company'), value: c.company, testId: 'customer-company' },
                {
                  label: t('customers.contact'),
                  value: [c.first_name, c.last_name].filter(Boolean).join(' '),
                },
                { label: t('customers.email'), value: c.email, testId: 'customer-email' },
                { label: t('customers.phone'), value: c.phone },
                { label: t('customers.vatNumber'), value: c.vat_number },
                { label: t('customers.cocNumber'), value: c.coc_number },
                { label: t('customers.address'), value: address },
                { label: t('customers.language'), value: c.language.toUpperCase() },
                { label: t('customers.currency'), value: c.currency },
                { label: t('customers.paymentTermDays'), value: f.number(c.payment_term_days) },
                { label: t('customers.notes'), value: c.notes, testId: 'customer-notes' },
                { label: t('ops.updatedAt'), value: f.date(c.updated_at, 'datetime') },
              ]}
            />
          </PageSection>
          <PageSection title={t('customers.recentDocuments')}>
            {c.recent_documents.length === 0 ? (
              <EmptyState title={t('customers.noDocuments')} />
            ) : (
              <Table>
                <Table.Header>
                  <Table.Row>
                    <Table.HeaderCell>{t('customers.documents')}</Table.HeaderCell>
                    <Table.HeaderCell>{t('customers.date')}</Table.HeaderCell>
                    <Table.HeaderCell>{t('ops.status')}</Table.HeaderCell>
                    <Table.HeaderCell className="text-right">{t('customers.total')}</Table.HeaderCell>
                    <Table.HeaderCell className="text-right">{t('customers.balance')}</Table.HeaderCell>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {c.recent_documents.map((d) => (
                    <Table.Row key={`${d.type}-${d.id}`}>
                      <Table.Cell>
                        <span className="flex items-center gap-x-2">
                          <Badge size="2xsmall">{t(`customers.documentType.${d.type}`)}</Badge>
                          <span className="font-mono">{d.number}</span>
                        </span>
                      </Table.Cell>
                      <Table.Cell>{f.date(d.date)}</Table.Cell>
                      <Table.Cell>{d.status}</Table.Cell>
                      <Table.Cell className="text-right tabular-nums">
                        {f.money(d.total, c.currency)}
                      </Table.Cell>
                      <Table.Cell className="text-right tabular-nums">
                        {d.balance === null ? '—' : f.money(d.balance, c.currency)}
                      </Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table>
            )}
          </PageSection>
        </>
      }
    >
      <Figures
        items={[
          {
            label: t('customers.openBalance'),
            value: f.money(c.open_balance, c.currency),
            testId: 'customer-open',
          },
          { label: t('customers.overdueBalance'), value: f.money(c.overdue_balance, c.currency) },
          { label: t('customers.availableCredit'), value: f.money(c.available_credit, c.currency) },
          {
            label: t('customers.documents'),
            value: f.number(Object.values(c.document_counts).reduce((a, b) => a + b, 0)),
          },
        ]}
      />
      <div className="flex flex-wrap gap-2 px-6 py-3">
        {Object.entries(c.document_counts).map(([k, n]) => (
          <Text key={k} size="xsmall" className="text-ui-fg-subtle">
            {t(`customers.counts.${k as keyof typeof c.document_counts}`)}: {f.number(n)}
          </Text>
        ))}
      </div>
      {editing && <EditCustomerDrawer customer={c} open={editing} onOpenChange={setEditing} />}
    </Page>
  );
}
