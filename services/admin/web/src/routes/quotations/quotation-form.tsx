import {
  createQuotationBody,
  type CreateQuotationInput,
  updateQuotationBody,
} from '@aplt/service-documents/schemas/quotations';
import { Plus } from '@medusajs/icons';
import { Button, Text, Textarea } from '@medusajs/ui';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { ErrorAlert } from '../../components/common/error-alert';
import { Form, FormField, TextField, useZodForm } from '../../components/forms/form';
import { CustomerPicker, customerName } from '../../components/sales/customer-picker';
import { formatDecimal, parseDecimal } from '../../components/sales/decimal';
import { type Quotation, usePriceProposal } from '../../hooks/api/quotations';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { useFormat } from '../../hooks/use-format';
import { type EditorLine, lineFromSaved, LineRow, type LineResult, newLine } from './line-editor';

/** The header fields as the form holds them (strings); the API's schema checks them on submit. */
const headerForm = z.object({
  customer_id: z.number().int().positive().optional(),
  title: z.string(),
  reference: z.string(),
  valid_until: z.string(),
  notes: z.string(),
  internal_notes: z.string(),
});
type HeaderValues = z.infer<typeof headerForm>;
const headerFields = ['customer_id', 'title', 'reference', 'valid_until', 'notes', 'internal_notes'] as const;

/**
 * Create and edit of a quotation: customer and header fields, the line editor, and the totals
 * with the franco state as the lines change. Everything is checked with the API's own schema
 * before it is sent; a refusal of the API shows above the buttons.
 */
export function QuotationForm({
  quotation,
  onSubmit,
  error,
  isSubmitting,
  cancelTo,
  submitLabel,
}: {
  quotation?: Quotation;
  onSubmit: (body: CreateQuotationInput) => void;
  error: unknown;
  isSubmitting: boolean;
  cancelTo: string;
  submitLabel: string;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const form = useZodForm(headerForm, {
    customer_id: quotation?.customer_id ?? undefined,
    title: quotation?.title ?? '',
    reference: quotation?.reference ?? '',
    valid_until: quotation?.valid_until ?? '',
    notes: quotation?.notes ?? '',
    internal_notes: quotation?.internal_notes ?? '',
  });
  const [customerLabel, setCustomerLabel] = useState(
    quotation ? quotation.customer_company || quotation.customer_name || quotation.customer_email || '' : '',
  );
  const customerId = form.watch('customer_id');

  const [lines, setLines] = useState<EditorLine[]>(() =>
    quotation?.lines.length ? quotation.lines.map(lineFromSaved) : [newLine()],
  );
  const [results, setResults] = useState<Record<string, LineResult>>({});
  const [lineErrors, setLineErrors] = useState<Record<number, string[]>>({});
  const [formProblem, setFormProblem] = useState<string | null>(null);
  const onResult = useCallback(
    (key: string, result: LineResult) => setResults((r) => (r[key] === result ? r : { ...r, [key]: result })),
    [],
  );
  const update = (key: string, patch: Partial<EditorLine>) => {
    setLines((ls) => ls.map((l) => (l.key === key ? { ...l, ...patch } : l)));
    // A changed line's earlier problems no longer apply.
    const index = lines.findIndex((l) => l.key === key);
    setLineErrors((errors) => (errors[index]?.length ? { ...errors, [index]: [] } : errors));
  };
  const remove = (key: string) => setLines((ls) => ls.filter((l) => l.key !== key));

  const current = lines.map((l) => results[l.key]).filter((r): r is LineResult => Boolean(r));
  const goods = current.reduce((acc, r) => acc + r.goods, 0n);
  const units = current.reduce((acc, r) => acc + r.units, 0);
  const pending = current.some((r) => r.pending);

  // The franco state of the whole quotation: the first priced line's proposal, told what the
  // other lines add (goods value and units), so the service applies its own rule.
  const francoInput = useMemo(() => {
    const firstIndex = lines.findIndex((l) => results[l.key]?.proposal);
    if (firstIndex < 0) return null;
    const first = results[lines[firstIndex]!.key]!;
    const own = parseDecimal(first.proposal!.line_total_with_setup) ?? 0n;
    const other = goods - own;
    return {
      ...first.proposalInput!,
      other_goods_value: formatDecimal(other > 0n ? other : 0n),
      other_units: Math.max(0, units - first.units),
    };
  }, [lines, results, goods, units]);
  const debouncedFranco = useDebouncedValue(francoInput, 250);
  const franco = usePriceProposal(debouncedFranco);
  const francoState =
    franco.data && JSON.stringify(francoInput) === JSON.stringify(debouncedFranco)
      ? franco.data.franco
      : null;

  const zeroRated = current.some((r) => r.zeroRated);
  const shipping = francoState ? (parseDecimal(francoState.shipping_cost) ?? 0n) : 0n;
  const vatByRate = new Map<string, bigint>();
  for (const r of current) {
    if (!r.vatRate || r.goods === 0n) continue;
    const rate = zeroRated ? '0' : r.vatRate;
    vatByRate.set(rate, (vatByRate.get(rate) ?? 0n) + r.goods);
  }
  if (shipping > 0n) {
    const rate = zeroRated ? '0' : '21';
    vatByRate.set(rate, (vatByRate.get(rate) ?? 0n) + shipping);
  }
  // VAT per rate on the rate's sum, rounded once (as the service does).
  const vat = [...vatByRate.entries()].reduce((acc, [rate, base]) => {
    const r = parseDecimal(rate) ?? 0n; // percent x 10,000
    const exact = base * r; // (money x 10,000) x (percent x 10,000); VAT in cents = money x percent
    const cents = (exact + 50_000_000n) / 100_000_000n;
    return acc + cents * 100n;
  }, 0n);
  const total = goods + shipping + vat;

  const submit = (values: HeaderValues) => {
    setFormProblem(null);
    const incomplete = lines.map((l, i) => ({ i, r: results[l.key] })).filter(({ r }) => !r?.payload);
    if (!lines.length) {
      setFormProblem(t('quotations.editor.noLines'));
      return;
    }
    if (incomplete.length) {
      setLineErrors(
        Object.fromEntries(
          incomplete.map(({ i, r }) => [i, [r?.error ?? t('quotations.editor.incomplete')]]),
        ),
      );
      return;
    }
    const body = {
      ...(values.customer_id ? { customer_id: values.customer_id } : {}),
      title: values.title,
      reference: values.reference,
      ...(values.valid_until ? { valid_until: values.valid_until } : {}),
      notes: values.notes,
      internal_notes: values.internal_notes,
      ...(quotation ? {} : { source_code: 'manual' as const }),
      lines: lines.map((l) => results[l.key]!.payload!),
    };
    // The API's own schema, before anything is sent.
    const parsed = (quotation ? updateQuotationBody : createQuotationBody).safeParse(body);
    if (!parsed.success) {
      const byLine: Record<number, string[]> = {};
      for (const issue of parsed.error.issues) {
        const [head, index, ...rest] = issue.path;
        if (head === 'lines' && typeof index === 'number')
          (byLine[index] ??= []).push(`${rest.join('.')}: ${issue.message}`);
        else if (headerFields.includes(head as (typeof headerFields)[number]))
          form.setError(head as keyof HeaderValues, { message: issue.message });
        else setFormProblem(`${issue.path.join('.')}: ${issue.message}`);
      }
      setLineErrors(byLine);
      return;
    }
    setLineErrors({});
    onSubmit(body as CreateQuotationInput);
  };

  return (
    // Only the header is a <form>: a Radix select inside a form mirrors itself in a hidden native
    // select, which resets a value whose option is not mounted yet (the line editor's positions and
    // techniques arrive with the product). The save button submits through the same schema.
    <div className="flex flex-col" data-testid="quotation-form">
      <Form form={form} onSubmit={submit} className="grid grid-cols-1 gap-4 px-6 py-4 md:grid-cols-3">
        <FormField<HeaderValues>
          name="customer_id"
          label={t('sales.fields.customer')}
          render={({ field, id, invalid, describedBy }) => (
            <CustomerPicker
              id={id}
              selected={customerLabel}
              invalid={invalid}
              describedBy={describedBy}
              onSelect={(c) => {
                field.onChange(c.id);
                setCustomerLabel(customerName(c));
              }}
            />
          )}
        />
        <TextField<HeaderValues> name="title" label={t('quotations.fields.title')} size="small" />
        <TextField<HeaderValues> name="reference" label={t('sales.fields.reference')} size="small" />
        <TextField<HeaderValues>
          name="valid_until"
          label={t('quotations.fields.validUntil')}
          type="date"
          size="small"
          hint={quotation ? undefined : t('quotations.editor.validityHint')}
        />
        <FormField<HeaderValues>
          name="notes"
          label={t('quotations.fields.notes')}
          render={({ field, id, invalid, describedBy }) => (
            <Textarea
              id={id}
              rows={2}
              value={field.value as string}
              onChange={field.onChange}
              onBlur={field.onBlur}
              aria-invalid={invalid}
              aria-describedby={describedBy}
            />
          )}
        />
        <FormField<HeaderValues>
          name="internal_notes"
          label={t('quotations.fields.internalNotes')}
          render={({ field, id, invalid, describedBy }) => (
            <Textarea
              id={id}
              rows={2}
              value={field.value as string}
              onChange={field.onChange}
              onBlur={field.onBlur}
              aria-invalid={invalid}
              aria-describedby={describedBy}
            />
          )}
        />
      </Form>

      <div className="flex flex-col gap-y-3 border-t px-6 py-4">
        <div className="flex items-center justify-between">
          <Text size="small" weight="plus">
            {t('quotations.editor.lines')}
          </Text>
          <div className="flex gap-x-2">
            <Button
              size="small"
              variant="secondary"
              type="button"
              onClick={() => setLines((ls) => [...ls, newLine('catalog')])}
              data-testid="add-line"
            >
              <Plus />
              {t('quotations.editor.addLine')}
            </Button>
            <Button
              size="small"
              variant="transparent"
              type="button"
              onClick={() => setLines((ls) => [...ls, newLine('custom')])}
              data-testid="add-free-line"
            >
              {t('quotations.editor.addFreeLine')}
            </Button>
          </div>
        </div>
        <ol className="flex flex-col gap-y-3" data-testid="line-editor">
          {lines.map((line, index) => (
            <LineRow
              key={line.key}
              line={line}
              index={index}
              customerId={customerId}
              onChange={(patch) => update(line.key, patch)}
              onRemove={() => remove(line.key)}
              onResult={onResult}
              fieldErrors={lineErrors[index] ?? []}
            />
          ))}
        </ol>
      </div>

      <div className="flex flex-col items-end gap-y-3 border-t px-6 py-4" data-testid="quotation-summary">
        <dl className="flex w-full max-w-md flex-col gap-y-1.5">
          <SummaryRow
            label={t('quotations.editor.goods')}
            value={f.money(formatDecimal(goods))}
            testId="summary-goods"
          />
          <SummaryRow
            label={t('sales.totals.shipping')}
            value={
              francoState
                ? francoState.free_shipping
                  ? t('quotations.editor.free')
                  : f.money(francoState.shipping_cost)
                : '—'
            }
          />
          <SummaryRow
            label={t('quotations.editor.vatEstimate')}
            value={pending ? '…' : f.money(formatDecimal(vat))}
          />
          <SummaryRow
            label={t('sales.totals.total')}
            value={pending ? t('quotations.editor.calculating') : f.money(formatDecimal(total))}
            strong
            testId="summary-total"
          />
        </dl>
        {francoState && (
          <div
            className={
              francoState.free_shipping
                ? 'bg-ui-tag-green-bg text-ui-tag-green-text w-full max-w-md rounded-md px-3 py-2'
                : 'bg-ui-tag-orange-bg text-ui-tag-orange-text w-full max-w-md rounded-md px-3 py-2'
            }
            data-testid="franco"
            data-free={String(francoState.free_shipping)}
            aria-live="polite"
          >
            <Text size="small">
              {francoState.free_shipping
                ? t('quotations.editor.francoFree', { limit: f.money(francoState.limit) })
                : t('quotations.editor.francoMissing', {
                    amount: f.money(francoState.amount_to_free_shipping),
                    limit: f.money(francoState.limit),
                  })}
            </Text>
          </div>
        )}
      </div>

      <div className="flex flex-col gap-y-3 border-t px-6 py-4">
        {formProblem && <ErrorAlert error={new Error(formProblem)} />}
        <ErrorAlert error={error} />
        <div className="flex items-center justify-end gap-x-2">
          <Button size="small" variant="secondary" type="button" asChild>
            <Link to={cancelTo}>{t('general.cancel')}</Link>
          </Button>
          <Button
            size="small"
            type="button"
            onClick={() => void form.handleSubmit(submit)()}
            isLoading={isSubmitting}
            disabled={pending}
            data-testid="quotation-submit"
          >
            {submitLabel}
          </Button>
        </div>
      </div>
    </div>
  );
}

function SummaryRow({
  label,
  value,
  strong,
  testId,
}: {
  label: string;
  value: string;
  strong?: boolean;
  testId?: string;
}) {
  return (
    <div
      className={strong ? 'flex justify-between border-t pt-2' : 'flex justify-between'}
      data-testid={testId}
    >
      <dt>
        <Text size="small" className={strong ? '' : 'text-ui-fg-subtle'} weight={strong ? 'plus' : 'regular'}>
          {label}
        </Text>
      </dt>
      <dd>
        <Text size="small" weight={strong ? 'plus' : 'regular'}>
          {value}
        </Text>
      </dd>
    </div>
  );
}
