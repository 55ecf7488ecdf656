import {
  billingIntervals,
  createSubscriptionBody,
  type CreateSubscriptionInput,
  MAX_SUBSCRIPTION_LINES,
} from '@aplt/service-documents/schemas/subscriptions';
import { Plus, Trash } from '@medusajs/icons';
import { Button, IconButton, Input, Select, Text, Textarea } from '@medusajs/ui';
import { useState } from 'react';
import { useFieldArray, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { ErrorAlert } from '../../components/common/error-alert';
import { Form, FormField, TextField, useZodForm } from '../../components/forms/form';
import { CustomerPicker, customerName } from '../../components/sales/customer-picker';
import { formatDecimal, lineEstimate, sumDecimals } from '../../components/sales/decimal';
import type { SubscriptionDetail } from '../../hooks/api/subscriptions';
import { useFormat } from '../../hooks/use-format';
import { subscriptionCustomer } from './subscription-status';

type Values = z.input<typeof createSubscriptionBody>;
type Body = Omit<CreateSubscriptionInput, 'paused'>;

/** Blank optional boxes mean "no value": null for the end date and term, the default for rates. */
const blanksOut = (v: unknown) => {
  if (!v || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  return {
    ...o,
    end_date: o.end_date === '' ? null : o.end_date,
    payment_term_days:
      o.payment_term_days === '' || o.payment_term_days === undefined || Number.isNaN(o.payment_term_days)
        ? null
        : o.payment_term_days,
    lines: Array.isArray(o.lines)
      ? o.lines.map((l: Record<string, unknown>) => ({
          ...l,
          discount_percent: l.discount_percent === '' ? undefined : l.discount_percent,
          vat_rate: l.vat_rate === '' ? undefined : l.vat_rate,
        }))
      : o.lines,
  };
};
const formSchema = z.preprocess(
  blanksOut,
  createSubscriptionBody,
) as unknown as typeof createSubscriptionBody;

const emptyLine = () => ({
  description: '',
  quantity: 1,
  unit_price: '',
  discount_percent: '',
  vat_rate: '21',
});

function initialValues(s?: SubscriptionDetail): Values {
  const today = new Date();
  const firstOfNextMonth = new Date(today.getFullYear(), today.getMonth() + 1, 1);
  const iso = (d: Date) =>
    `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  return {
    customer_id: s?.customer_id,
    description: s?.description ?? '',
    interval: s?.interval ?? 'monthly',
    start_date: s?.start_date ?? iso(firstOfNextMonth),
    end_date: s?.end_date ?? '',
    payment_term_days: s?.payment_term_days ?? null,
    reference: s?.reference ?? '',
    notes: s?.notes ?? '',
    lines: s?.lines.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unit_price: l.unit_price.replace(/(\.\d\d)0+$/, '$1'),
      discount_percent: l.discount_percent === '0.00' ? '' : l.discount_percent,
      vat_rate: l.vat_rate.replace(/\.00$/, ''),
      line_type: l.line_type,
      ...(l.product_id ? { product_id: l.product_id } : {}),
      ...(l.sku ? { sku: l.sku } : {}),
    })) ?? [emptyLine()],
  };
}

/**
 * A subscription's header and lines, checked by the documents service's own schema before it
 * is sent. Used by the create and the edit page.
 */
export function SubscriptionForm({
  subscription,
  onSubmit,
  error,
  isSubmitting,
  cancelTo,
  submitLabel,
}: {
  subscription?: SubscriptionDetail;
  onSubmit: (body: Body) => void;
  error: unknown;
  isSubmitting: boolean;
  cancelTo: string;
  submitLabel: string;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const form = useZodForm(formSchema, initialValues(subscription));
  const lines = useFieldArray({ control: form.control, name: 'lines' });
  const watched = useWatch({ control: form.control, name: 'lines' });
  const [customerLabel, setCustomerLabel] = useState(subscription ? subscriptionCustomer(subscription) : '');
  const totals = (watched ?? []).map((l) =>
    lineEstimate(
      Number(l?.quantity ?? 0),
      String(l?.unit_price ?? ''),
      '0',
      String(l?.discount_percent ?? ''),
    ),
  );
  const linesError = form.formState.errors.lines?.root?.message ?? form.formState.errors.lines?.message;

  return (
    <Form
      form={form}
      onSubmit={(values) => onSubmit(values)}
      className="flex flex-col"
      testId="subscription-form"
    >
      <div className="grid grid-cols-1 gap-4 px-6 py-4 md:grid-cols-3">
        <FormField<Values>
          name="customer_id"
          label={t('subscriptions.fields.customer')}
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
        <TextField<Values>
          name="description"
          label={t('subscriptions.fields.description')}
          size="small"
          maxLength={200}
          data-testid="subscription-description"
        />
        <FormField<Values>
          name="interval"
          label={t('subscriptions.fields.interval')}
          render={({ field, id }) => (
            <Select size="small" value={field.value as string} onValueChange={field.onChange}>
              <Select.Trigger
                id={id}
                ref={field.ref}
                onBlur={field.onBlur}
                data-testid="subscription-interval"
              >
                <Select.Value />
              </Select.Trigger>
              <Select.Content>
                {billingIntervals.map((i) => (
                  <Select.Item key={i} value={i}>
                    {t(`subscriptions.interval.${i}`)}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select>
          )}
        />
        <TextField<Values>
          name="start_date"
          label={t('subscriptions.fields.start')}
          type="date"
          size="small"
        />
        <TextField<Values>
          name="end_date"
          label={t('subscriptions.fields.end')}
          type="date"
          size="small"
          hint={t('subscriptions.fields.endHint')}
        />
        <FormField<Values>
          name="payment_term_days"
          label={t('subscriptions.fields.paymentTerm')}
          hint={t('subscriptions.fields.paymentTermHint')}
          render={({ field, id, invalid, describedBy }) => (
            <Input
              id={id}
              size="small"
              type="number"
              min={0}
              max={60}
              name={field.name}
              ref={field.ref}
              value={field.value === undefined || field.value === null ? '' : String(field.value)}
              onChange={(e) => field.onChange(e.target.value === '' ? null : Number(e.target.value))}
              onBlur={field.onBlur}
              aria-invalid={invalid}
              aria-describedby={describedBy}
            />
          )}
        />
        <TextField<Values>
          name="reference"
          label={t('subscriptions.fields.reference')}
          size="small"
          maxLength={200}
        />
        <FormField<Values>
          name="notes"
          label={t('subscriptions.fields.notes')}
          render={({ field, id, invalid, describedBy }) => (
            <Textarea
              id={id}
              rows={2}
              value={(field.value as string | null | undefined) ?? ''}
              onChange={field.onChange}
              onBlur={field.onBlur}
              aria-invalid={invalid}
              aria-describedby={describedBy}
            />
          )}
        />
      </div>

      <div className="flex flex-col gap-y-3 border-t px-6 py-4" data-testid="subscription-lines">
        <div className="flex items-center justify-between">
          <Text size="small" weight="plus">
            {t('subscriptions.lines.title')}
          </Text>
          <Button
            size="small"
            variant="secondary"
            type="button"
            disabled={lines.fields.length >= MAX_SUBSCRIPTION_LINES}
            onClick={() => lines.append(emptyLine())}
            data-testid="subscription-add-line"
          >
            <Plus />
            {t('subscriptions.lines.add')}
          </Button>
        </div>
        {lines.fields.map((row, i) => (
          <div
            key={row.id}
            className="grid grid-cols-2 items-start gap-3 md:grid-cols-[minmax(0,3fr)_repeat(4,minmax(0,1fr))_6rem_2rem]"
            data-testid="subscription-line"
          >
            <TextField<Values>
              name={`lines.${i}.description`}
              label={t('subscriptions.lines.description')}
              size="small"
              maxLength={500}
            />
            <FormField<Values>
              name={`lines.${i}.quantity`}
              label={t('subscriptions.lines.quantity')}
              render={({ field, id, invalid, describedBy }) => (
                <Input
                  id={id}
                  size="small"
                  type="number"
                  min={1}
                  name={field.name}
                  ref={field.ref}
                  value={field.value === undefined ? '' : String(field.value)}
                  onChange={(e) => field.onChange(e.target.value === '' ? undefined : Number(e.target.value))}
                  onBlur={field.onBlur}
                  aria-invalid={invalid}
                  aria-describedby={describedBy}
                />
              )}
            />
            <TextField<Values>
              name={`lines.${i}.unit_price`}
              label={t('subscriptions.lines.unitPrice')}
              size="small"
              inputMode="decimal"
            />
            <TextField<Values>
              name={`lines.${i}.discount_percent`}
              label={t('subscriptions.lines.discount')}
              size="small"
              inputMode="decimal"
            />
            <TextField<Values>
              name={`lines.${i}.vat_rate`}
              label={t('subscriptions.lines.vatRate')}
              size="small"
              inputMode="decimal"
            />
            <div className="flex flex-col gap-y-2">
              <Text size="small" weight="plus" className="text-ui-fg-subtle">
                {t('subscriptions.lines.total')}
              </Text>
              <Text size="small" className="text-right tabular-nums leading-8">
                {totals[i] ? f.money(totals[i]) : '—'}
              </Text>
            </div>
            <div className="pt-7">
              <IconButton
                size="small"
                variant="transparent"
                type="button"
                aria-label={t('subscriptions.lines.remove')}
                disabled={lines.fields.length <= 1}
                onClick={() => lines.remove(i)}
              >
                <Trash />
              </IconButton>
            </div>
          </div>
        ))}
        {linesError && (
          <Text size="small" className="text-ui-fg-error">
            {linesError}
          </Text>
        )}
        <Text
          size="small"
          weight="plus"
          className="self-end tabular-nums"
          data-testid="subscription-form-total"
        >
          {t('subscriptions.fields.amount')}: {f.money(formatDecimal(sumDecimals(totals), 2))}
        </Text>
      </div>

      <div className="flex flex-col gap-y-3 border-t px-6 py-4">
        <ErrorAlert error={error} />
        <div className="flex justify-end gap-x-2">
          <Button size="small" variant="secondary" type="button" asChild>
            <Link to={cancelTo}>{t('general.cancel')}</Link>
          </Button>
          <Button size="small" type="submit" isLoading={isSubmitting} data-testid="subscription-save">
            {submitLabel}
          </Button>
        </div>
      </div>
    </Form>
  );
}
