import { CheckCircle, PencilSquare, XCircle } from '@medusajs/icons';
import { Button, Drawer, Label, Prompt, Text, Textarea, toast } from '@medusajs/ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorAlert } from '../../components/common/error-alert';
import { SectionSpinner } from '../../components/common/full-page-spinner';
import { Page, PageSection } from '../../components/layout/page';
import { customerLabel, Fields, LinesTable, Totals } from '../../components/sales/detail';
import { DocumentChain } from '../../components/sales/document-chain';
import { DocumentFiles, PdfPreview } from '../../components/sales/document-files';
import { DocumentStatus } from '../../components/sales/status-badge';
import { sumDecimals, formatDecimal } from '../../components/sales/decimal';
import { useFeatures } from '../../hooks/api/features';
import {
  type Quotation,
  useConfirmQuotation,
  useQuotation,
  useRejectQuotation,
} from '../../hooks/api/quotations';
import { useFormat } from '../../hooks/use-format';

/** /app/quotations/:id: the quotation, its files, confirm to order, and its document chain. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const { id = '' } = useParams();
  const quotation = useQuotation(id);
  const [preview, setPreview] = useState(false);
  const sourceLicensed = useFeatures().data?.features.includes('quotation_source_filter') ?? false;
  if (quotation.error) return <ErrorAlert error={quotation.error} onRetry={() => void quotation.refetch()} />;
  if (!quotation.data) return <SectionSpinner />;
  const q = quotation.data;
  const open = q.status === 'open';

  return (
    <Page
      title={q.quotation_number}
      description={q.title ?? undefined}
      testId="quotation-detail"
      actions={
        <>
          <DocumentStatus kind="quotation" status={q.status} />
          {open && (
            <Button size="small" variant="secondary" asChild>
              <Link to="edit" data-testid="quotation-edit">
                <PencilSquare />
                {t('quotations.edit')}
              </Link>
            </Button>
          )}
          {open && <RejectButton quotation={q} />}
          {open && <ConfirmButton quotation={q} />}
          {q.order && (
            <Button size="small" variant="secondary" asChild>
              <Link to={`/orders/${q.order.id}`} data-testid="quotation-order-link">
                {t('quotations.toOrder', { number: q.order.order_number })}
              </Link>
            </Button>
          )}
        </>
      }
      sections={
        <>
          <PageSection title={t('sales.sections.lines')}>
            <LinesTable
              lines={q.lines}
              testId="quotation-lines"
              extraColumns={[
                {
                  id: 'setup',
                  header: t('sales.lines.setup'),
                  cell: (l) => {
                    const total = sumDecimals(l.setup_costs.map((s) => s.total));
                    return total ? f.money(formatDecimal(total)) : '—';
                  },
                },
              ]}
            />
            <Totals
              testId="quotation-totals"
              rows={[
                { label: t('sales.totals.subtotal'), value: f.money(q.subtotal) },
                Number(q.setup_cost_total) > 0 && {
                  label: t('sales.totals.setup'),
                  value: f.money(q.setup_cost_total),
                },
                Number(q.discount_total) > 0 && {
                  label: t('sales.totals.discount'),
                  value: `− ${f.money(q.discount_total)}`,
                },
                {
                  label: t('sales.totals.shipping'),
                  value: Number(q.shipping_cost) ? f.money(q.shipping_cost) : t('quotations.editor.free'),
                },
                { label: t('sales.totals.vat'), value: f.money(q.vat_total) },
                {
                  label: t('sales.totals.total'),
                  value: f.money(q.total),
                  strong: true,
                  testId: 'quotation-total',
                },
              ]}
            />
          </PageSection>
          <PageSection
            title={t('sales.sections.files')}
            actions={
              <DocumentFiles
                kind="quotations"
                id={q.id}
                number={q.quotation_number}
                preview={preview}
                onTogglePreview={() => setPreview((p) => !p)}
              />
            }
          >
            {preview && <PdfPreview kind="quotations" id={q.id} name={q.quotation_number} />}
          </PageSection>
          <PageSection title={t('sales.chain.title')}>
            <DocumentChain type="quotation" id={q.id} />
          </PageSection>
        </>
      }
    >
      <Fields
        items={[
          {
            label: t('sales.fields.customer'),
            value: q.customer_id ? (
              <Link className="text-ui-fg-interactive hover:underline" to={`/customers/${q.customer_id}`}>
                {customerLabel(q)}
              </Link>
            ) : (
              customerLabel(q)
            ),
          },
          { label: t('sales.fields.date'), value: f.date(q.quotation_date) },
          { label: t('quotations.fields.validUntil'), value: f.date(q.valid_until) },
          { label: t('sales.fields.reference'), value: q.reference },
          ...(sourceLicensed
            ? [
                {
                  label: t('quotations.fields.source'),
                  value: t(`sales.source.${q.source_code}` as 'sales.source.web'),
                },
              ]
            : []),
          { label: t('sales.fields.email'), value: q.customer_email },
          ...(q.notes ? [{ label: t('quotations.fields.notes'), value: q.notes }] : []),
          ...(q.internal_notes
            ? [{ label: t('quotations.fields.internalNotes'), value: q.internal_notes }]
            : []),
          ...(q.rejection_reason
            ? [{ label: t('quotations.fields.rejectionReason'), value: q.rejection_reason }]
            : []),
        ]}
      />
    </Page>
  );
}

/** Confirm to order, after a prompt; the order opens. A refusal (409 etc.) shows under the page title. */
function ConfirmButton({ quotation }: { quotation: Quotation }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const confirm = useConfirmQuotation(quotation.id);
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="small"
        onClick={() => setOpen(true)}
        isLoading={confirm.isPending}
        data-testid="quotation-confirm"
      >
        <CheckCircle />
        {t('quotations.confirm')}
      </Button>
      <Prompt open={open} onOpenChange={setOpen} variant="confirmation">
        <Prompt.Content>
          <Prompt.Header>
            <Prompt.Title>
              {t('quotations.confirmTitle', { number: quotation.quotation_number })}
            </Prompt.Title>
            <Prompt.Description>{t('quotations.confirmDescription')}</Prompt.Description>
          </Prompt.Header>
          {confirm.error ? (
            <div className="px-6 pb-4">
              <ErrorAlert error={confirm.error} />
            </div>
          ) : null}
          <Prompt.Footer>
            <Prompt.Cancel>{t('general.cancel')}</Prompt.Cancel>
            <Button
              size="small"
              isLoading={confirm.isPending}
              data-testid="quotation-confirm-go"
              onClick={() =>
                // The refetch after success unmounts this button (the quotation is no longer
                // open), which drops mutate()'s own callbacks; the promise still settles.
                void confirm.mutateAsync().then(
                  (order) => {
                    setOpen(false);
                    toast.success(t('quotations.confirmed', { number: order.order_number }));
                    void navigate(`/orders/${order.id}`);
                  },
                  () => {}, // shown from confirm.error
                )
              }
            >
              {t('quotations.confirm')}
            </Button>
          </Prompt.Footer>
        </Prompt.Content>
      </Prompt>
    </>
  );
}

/** Reject with a reason (1-2000 characters, as the API demands). */
function RejectButton({ quotation }: { quotation: Quotation }) {
  const { t } = useTranslation();
  const reject = useRejectQuotation(quotation.id);
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const invalid = reason.trim().length === 0 || reason.length > 2000;
  return (
    <Drawer open={open} onOpenChange={setOpen}>
      <Drawer.Trigger asChild>
        <Button size="small" variant="secondary" data-testid="quotation-reject">
          <XCircle />
          {t('quotations.reject')}
        </Button>
      </Drawer.Trigger>
      <Drawer.Content>
        <Drawer.Header>
          <Drawer.Title>{t('quotations.rejectTitle', { number: quotation.quotation_number })}</Drawer.Title>
        </Drawer.Header>
        <Drawer.Body className="flex flex-col gap-y-2">
          <Label htmlFor="reject-reason" size="small" weight="plus">
            {t('quotations.fields.rejectionReason')}
          </Label>
          <Textarea
            id="reject-reason"
            rows={4}
            value={reason}
            aria-invalid={touched && invalid}
            onChange={(e) => setReason(e.target.value)}
            onBlur={() => setTouched(true)}
          />
          {touched && invalid && (
            <Text size="small" className="text-ui-fg-error">
              {t('validation.required')}
            </Text>
          )}
          <ErrorAlert error={reject.error} />
        </Drawer.Body>
        <Drawer.Footer>
          <Drawer.Close asChild>
            <Button size="small" variant="secondary">
              {t('general.cancel')}
            </Button>
          </Drawer.Close>
          <Button
            size="small"
            variant="danger"
            isLoading={reject.isPending}
            onClick={() => {
              setTouched(true);
              if (invalid) return;
              reject.mutate(reason.trim(), { onSuccess: () => setOpen(false) });
            }}
          >
            {t('quotations.reject')}
          </Button>
        </Drawer.Footer>
      </Drawer.Content>
    </Drawer>
  );
}
