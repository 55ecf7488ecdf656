import { CreditCard } from '@medusajs/icons';
import { Button, Table, Text } from '@medusajs/ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ErrorAlert } from '../../components/common/error-alert';
import { SectionSpinner } from '../../components/common/full-page-spinner';
import { Page, PageSection } from '../../components/layout/page';
import { customerLabel, Fields, LinesTable, Totals } from '../../components/sales/detail';
import { DocumentChain } from '../../components/sales/document-chain';
import { DocumentFiles, PdfPreview } from '../../components/sales/document-files';
import { RegisterPayment } from '../../components/sales/register-payment';
import { DocumentStatus } from '../../components/sales/status-badge';
import { VatSummary } from '../../components/sales/vat-summary';
import { useFeatures } from '../../hooks/api/features';
import { type Invoice, useInvoice } from '../../hooks/api/invoices';
import { useFormat } from '../../hooks/use-format';
import { CreditNoteDrawer } from './credit-note-drawer';

/**
 * /app/invoices/:id: an invoice (or proforma) with its VAT per rate, files (PDF, `.eml`, UBL),
 * the payments and credit notes that reached it, and the actions on it: register a payment,
 * write a credit note.
 */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const { id = '' } = useParams();
  const invoice = useInvoice(id);
  const features = useFeatures().data?.features ?? [];
  const [preview, setPreview] = useState(false);
  if (invoice.error) return <ErrorAlert error={invoice.error} onRetry={() => void invoice.refetch()} />;
  if (!invoice.data) return <SectionSpinner />;
  const inv = invoice.data;
  const isInvoice = inv.document_type === 'invoice';
  const owes = isInvoice && Number(inv.balance) > 0;

  return (
    <Page
      title={inv.invoice_number}
      description={inv.document_type === 'proforma' ? t('invoices.proforma') : (inv.reference ?? undefined)}
      testId="invoice-detail"
      actions={
        <>
          <DocumentStatus kind="invoice" status={inv.status} />
          {isInvoice && features.includes('credit_notes') && <CreditNoteDrawer invoice={inv} />}
          {owes && features.includes('payments') && (
            <RegisterPayment
              customer={{ id: inv.customer_id, name: customerLabel(inv) }}
              invoiceId={inv.id}
              trigger={
                <Button size="small" data-testid="invoice-pay">
                  <CreditCard />
                  {t('payments.register.button')}
                </Button>
              }
            />
          )}
        </>
      }
      sections={
        <>
          <PageSection title={t('sales.sections.lines')}>
            <LinesTable
              lines={inv.lines}
              testId="invoice-lines"
              extraColumns={
                isInvoice
                  ? [
                      {
                        id: 'credited',
                        header: t('invoices.fields.credited'),
                        cell: (l) => (l.credited_quantity ? f.number(l.credited_quantity) : '—'),
                      },
                    ]
                  : []
              }
            />
            <Totals
              testId="invoice-totals"
              rows={[
                { label: t('sales.totals.subtotal'), value: f.money(inv.subtotal) },
                { label: t('sales.totals.vat'), value: f.money(inv.vat_total) },
                { label: t('sales.totals.total'), value: f.money(inv.total), strong: true },
                Number(inv.credited_total) > 0 && {
                  label: t('invoices.fields.creditedTotal'),
                  value: `− ${f.money(inv.credited_total)}`,
                },
                Number(inv.paid_total) > 0 && {
                  label: t('invoices.fields.paidTotal'),
                  value: `− ${f.money(inv.paid_total)}`,
                },
                isInvoice && {
                  label: t('invoices.fields.balance'),
                  value: f.money(inv.balance),
                  strong: true,
                  testId: 'invoice-balance',
                },
              ]}
            />
          </PageSection>
          <PageSection title={t('invoices.vatPerRate')}>
            <VatSummary rows={inv.vat_summary} note={inv.vat_note} />
          </PageSection>
          {isInvoice && (
            <PageSection title={t('invoices.moneyIn')}>
              <MoneyIn invoice={inv} />
            </PageSection>
          )}
          <PageSection
            title={t('sales.sections.files')}
            actions={
              <DocumentFiles
                kind="invoices"
                id={inv.id}
                number={inv.invoice_number}
                ubl={isInvoice}
                eml={inv.document_type !== 'credit_note'}
                preview={preview}
                onTogglePreview={() => setPreview((p) => !p)}
              />
            }
          >
            {preview && <PdfPreview kind="invoices" id={inv.id} name={inv.invoice_number} />}
          </PageSection>
          <PageSection title={t('sales.chain.title')}>
            <DocumentChain type={inv.document_type} id={inv.id} />
          </PageSection>
        </>
      }
    >
      <Fields
        items={[
          {
            label: t('sales.fields.customer'),
            value: (
              <Link className="text-ui-fg-interactive hover:underline" to={`/customers/${inv.customer_id}`}>
                {customerLabel(inv)}
              </Link>
            ),
          },
          { label: t('invoices.fields.issueDate'), value: f.date(inv.issue_date) },
          { label: t('invoices.fields.dueDate'), value: f.date(inv.due_date) },
          {
            label: t('invoices.fields.order'),
            value: inv.order_id ? (
              <Link className="text-ui-fg-interactive hover:underline" to={`/orders/${inv.order_id}`}>
                {t('invoices.openOrder')}
              </Link>
            ) : null,
          },
          { label: t('sales.fields.reference'), value: inv.reference },
          {
            label: t('invoices.fields.paymentTerm'),
            value: t('invoices.days', { count: inv.payment_term_days }),
          },
          { label: t('invoices.fields.vatNumber'), value: inv.customer_vat_number },
          ...(inv.vat_note ? [{ label: t('invoices.fields.vatNote'), value: inv.vat_note }] : []),
        ]}
      />
    </Page>
  );
}

/** Payments allocated to the invoice and its credit notes, each a link to its page. */
function MoneyIn({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation();
  const f = useFormat();
  const allocations = invoice.allocations ?? [];
  const credits = invoice.credit_notes ?? [];
  if (!allocations.length && !credits.length)
    return (
      <Text size="small" className="text-ui-fg-muted px-6 py-4" data-testid="money-in-empty">
        {t('invoices.nothingIn')}
      </Text>
    );
  return (
    <div className="overflow-x-auto">
      <Table data-testid="money-in">
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>{t('invoices.moneyKind')}</Table.HeaderCell>
            <Table.HeaderCell>{t('sales.fields.number')}</Table.HeaderCell>
            <Table.HeaderCell>{t('sales.fields.date')}</Table.HeaderCell>
            <Table.HeaderCell>{t('invoices.moneyNote')}</Table.HeaderCell>
            <Table.HeaderCell className="text-right">{t('payments.fields.amount')}</Table.HeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {allocations.map((a) => (
            <Table.Row key={`a${a.id}`} data-allocation={a.payment_number ?? a.id}>
              <Table.Cell>
                {a.payment_id ? t('sales.docType.payment') : t('invoices.customerCredit')}
              </Table.Cell>
              <Table.Cell>
                {a.payment_id ? (
                  <Link className="text-ui-fg-interactive hover:underline" to={`/payments/${a.payment_id}`}>
                    {a.payment_number}
                  </Link>
                ) : (
                  '—'
                )}
              </Table.Cell>
              <Table.Cell>{f.date(a.payment_date ?? a.allocated_at)}</Table.Cell>
              <Table.Cell>
                {a.method ? t(`payments.method.${a.method}` as 'payments.method.cash') : '—'}
              </Table.Cell>
              <Table.Cell className="text-right">{f.money(a.amount)}</Table.Cell>
            </Table.Row>
          ))}
          {credits.map((c) => (
            <Table.Row key={`c${c.id}`} data-credit-note={c.invoice_number}>
              <Table.Cell>{t('sales.docType.credit_note')}</Table.Cell>
              <Table.Cell>
                <Link className="text-ui-fg-interactive hover:underline" to={`/credit-notes/${c.id}`}>
                  {c.invoice_number}
                </Link>
              </Table.Cell>
              <Table.Cell>{f.date(c.issue_date)}</Table.Cell>
              <Table.Cell className="max-w-[280px] truncate">{c.credit_reason ?? '—'}</Table.Cell>
              <Table.Cell className="text-right">{f.money(c.total)}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table>
    </div>
  );
}
