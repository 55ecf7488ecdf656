import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ErrorAlert } from '../../components/common/error-alert';
import { SectionSpinner } from '../../components/common/full-page-spinner';
import { Page, PageSection } from '../../components/layout/page';
import { customerLabel, Fields, LinesTable, Totals } from '../../components/sales/detail';
import { DocumentChain } from '../../components/sales/document-chain';
import { DocumentFiles, PdfPreview } from '../../components/sales/document-files';
import { VatSummary } from '../../components/sales/vat-summary';
import { useCreditNote } from '../../hooks/api/credit-notes';
import { useFormat } from '../../hooks/use-format';

/** /app/credit-notes/:id: a credit note, the invoice it credits, its VAT, files and chain. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const { id = '' } = useParams();
  const note = useCreditNote(id);
  const [preview, setPreview] = useState(false);
  if (note.error) return <ErrorAlert error={note.error} onRetry={() => void note.refetch()} />;
  if (!note.data) return <SectionSpinner />;
  const c = note.data;
  return (
    <Page
      title={c.invoice_number}
      description={c.credit_reason ?? undefined}
      testId="credit-note-detail"
      sections={
        <>
          <PageSection title={t('sales.sections.lines')}>
            <LinesTable lines={c.lines} testId="credit-note-lines" />
            <Totals
              rows={[
                { label: t('sales.totals.subtotal'), value: f.money(c.subtotal) },
                { label: t('sales.totals.vat'), value: f.money(c.vat_total) },
                { label: t('creditNotes.fields.credited'), value: f.money(c.total), strong: true },
              ]}
            />
          </PageSection>
          <PageSection title={t('invoices.vatPerRate')}>
            <VatSummary rows={c.vat_summary} note={c.vat_note} />
          </PageSection>
          <PageSection
            title={t('sales.sections.files')}
            actions={
              <DocumentFiles
                kind="credit-notes"
                id={c.id}
                number={c.invoice_number}
                ubl
                eml={false}
                preview={preview}
                onTogglePreview={() => setPreview((p) => !p)}
              />
            }
          >
            {preview && <PdfPreview kind="credit-notes" id={c.id} name={c.invoice_number} />}
          </PageSection>
          <PageSection title={t('sales.chain.title')}>
            <DocumentChain type="credit_note" id={c.id} />
          </PageSection>
        </>
      }
    >
      <Fields
        items={[
          {
            label: t('creditNotes.fields.invoice'),
            value: c.credited_invoice ? (
              <Link
                className="text-ui-fg-interactive hover:underline"
                to={`/invoices/${c.credited_invoice.id}`}
                data-testid="credited-invoice-link"
              >
                {c.credited_invoice.invoice_number}
              </Link>
            ) : null,
          },
          {
            label: t('sales.fields.customer'),
            value: (
              <Link className="text-ui-fg-interactive hover:underline" to={`/customers/${c.customer_id}`}>
                {customerLabel(c)}
              </Link>
            ),
          },
          { label: t('sales.fields.date'), value: f.date(c.issue_date) },
          { label: t('creditNotes.fields.reason'), value: c.credit_reason },
          { label: t('sales.fields.reference'), value: c.reference },
        ]}
      />
    </Page>
  );
}
