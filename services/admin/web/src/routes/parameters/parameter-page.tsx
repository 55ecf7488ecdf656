import {
  parameterCatalog,
  type ParameterKey,
  parameterKeys,
  updateParametersBody,
} from '@aplt/service-documents/schemas/parameters';
import { Button, Input, StatusBadge, Table, Text, toast } from '@medusajs/ui';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ErrorAlert } from '../../components/common/error-alert';
import { ErrorPanel } from '../../components/common/error-boundary';
import { EmptyState } from '../../components/common/empty-state';
import { SectionSpinner } from '../../components/common/full-page-spinner';
import { Form, FormField, useZodForm } from '../../components/forms/form';
import { Page, PageSection } from '../../components/layout/page';
import { ActiveBadge } from '../../components/operations/active-badge';
import { type Parameters, useParameters, useUpdateParameters } from '../../hooks/api/parameters';
import { useFormat } from '../../hooks/use-format';
import { PartnerSettingsSection } from './partner-settings';

type Values = Record<ParameterKey, string>;

/**
 * The form checks each value with the service's own rule for that key (`parameterCatalog`); an
 * empty box sends null, which removes the stored value so the default applies again.
 */
const formSchema = z.object(
  Object.fromEntries(
    parameterKeys.map((k) => [
      k,
      z
        .string()
        .trim()
        .refine(
          (v) => v === '' || parameterCatalog[k].value.safeParse(v).success,
          parameterCatalog[k].type === 'money' ? 'parameters.moneyFormat' : 'parameters.integerFormat',
        ),
    ]),
  ) as unknown as Record<ParameterKey, z.ZodType<string, string>>,
);

const toForm = (data: Parameters): Values =>
  Object.fromEntries(
    parameterKeys.map((k) => [k, data.parameters.find((p) => p.key === k)?.value ?? '']),
  ) as Values;

function ParameterForm({ data }: { data: Parameters }) {
  const { t } = useTranslation();
  const f = useFormat();
  const update = useUpdateParameters();
  const form = useZodForm<Values, Values>(formSchema, toForm(data));
  // A save (or someone else's, after a refetch) brings new stored values: the form follows.
  useEffect(() => form.reset(toForm(data)), [data, form]);

  const submit = (values: Values) => {
    const changed = parameterKeys.filter((k) => values[k] !== toForm(data)[k]);
    if (changed.length === 0) {
      toast.info(t('parameters.noChanges'));
      return;
    }
    const body = updateParametersBody.parse({
      values: Object.fromEntries(changed.map((k) => [k, values[k] === '' ? null : values[k]])),
      expected_updated_at: data.updated_at,
    });
    update.mutate(body, { onSuccess: () => toast.success(t('ops.saved')) });
  };
  const shown = (p: Parameters['parameters'][number], v: string | null) =>
    v === null ? '—' : p.type === 'money' ? f.money(v) : f.number(v);

  return (
    <Form form={form} onSubmit={submit} testId="parameter-form" className="flex flex-col">
      <div className="divide-y">
        {data.parameters.map((p) => (
          <div
            key={p.key}
            className="grid grid-cols-1 gap-4 px-6 py-4 md:grid-cols-[1fr_240px]"
            data-parameter={p.key}
          >
            <FormField<Values>
              name={p.key}
              label={
                <span className="flex items-center gap-x-2">
                  {t(`parameters.labels.${p.key}`)}
                  <span className="text-ui-fg-muted font-mono text-xs font-normal">{p.key}</span>
                </span>
              }
              hint={`${t(`parameters.hints.${p.key}`)} ${t('parameters.usesDefault')}`}
              render={({ field, id, invalid, describedBy }) => (
                <Input
                  id={id}
                  name={field.name}
                  ref={field.ref}
                  inputMode={p.type === 'money' ? 'decimal' : 'numeric'}
                  placeholder={p.default ?? ''}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  aria-invalid={invalid}
                  aria-describedby={describedBy}
                  className="max-w-xs"
                />
              )}
            />
            <div className="flex flex-col gap-y-1 md:pt-7">
              <Text size="xsmall" className="text-ui-fg-muted">
                {t('parameters.effective')}
              </Text>
              <Text size="small" weight="plus" className="tabular-nums" data-testid={`effective-${p.key}`}>
                {shown(p, p.effective)}
              </Text>
              <Text size="xsmall" className="text-ui-fg-muted">
                {t('parameters.default')}: {shown(p, p.default)}
              </Text>
            </div>
          </div>
        ))}
      </div>
      <div className="flex flex-col gap-y-2 px-6 py-4">
        <ErrorAlert error={update.error} />
        <div className="flex justify-end gap-x-2">
          <Button size="small" variant="secondary" type="button" onClick={() => form.reset(toForm(data))}>
            {t('general.cancel')}
          </Button>
          <Button size="small" type="submit" isLoading={update.isPending} data-testid="parameters-save">
            {t('parameters.save')}
          </Button>
        </div>
      </div>
    </Form>
  );
}

/** /app/parameters: the tenant's parameters (editable), other settings, VAT codes and payment terms. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const params = useParameters();
  const data = params.data;
  return (
    <Page
      title={t('nav.items.parameters')}
      description={t('parameters.description')}
      testId="parameters"
      sections={
        data && (
          <>
            <PartnerSettingsSection />
            <PageSection title={t('parameters.vatCodes')}>
              <Table>
                <Table.Header>
                  <Table.Row>
                    <Table.HeaderCell>{t('ops.code')}</Table.HeaderCell>
                    <Table.HeaderCell>{t('ops.name')}</Table.HeaderCell>
                    <Table.HeaderCell>{t('parameters.category')}</Table.HeaderCell>
                    <Table.HeaderCell className="text-right">{t('parameters.rate')}</Table.HeaderCell>
                    <Table.HeaderCell>{t('ops.status')}</Table.HeaderCell>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {data.vat_codes.map((v) => (
                    <Table.Row key={v.id}>
                      <Table.Cell className="font-mono">{v.code}</Table.Cell>
                      <Table.Cell>
                        {v.name}{' '}
                        {v.is_default && <StatusBadge color="blue">{t('parameters.isDefault')}</StatusBadge>}
                      </Table.Cell>
                      <Table.Cell>{v.category}</Table.Cell>
                      <Table.Cell className="text-right tabular-nums">{f.percent(v.rate)}</Table.Cell>
                      <Table.Cell>
                        <ActiveBadge active={v.is_active} />
                      </Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table>
            </PageSection>
            <PageSection title={t('parameters.paymentTerms')}>
              <Table>
                <Table.Header>
                  <Table.Row>
                    <Table.HeaderCell>{t('ops.code')}</Table.HeaderCell>
                    <Table.HeaderCell>{t('ops.name')}</Table.HeaderCell>
                    <Table.HeaderCell className="text-right">{t('parameters.days')}</Table.HeaderCell>
                    <Table.HeaderCell>{t('ops.status')}</Table.HeaderCell>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {data.payment_terms.map((p) => (
                    <Table.Row key={p.id}>
                      <Table.Cell className="font-mono">{p.code}</Table.Cell>
                      <Table.Cell>
                        {(f.language === 'en' ? p.name_en : p.name_nl) ?? p.name_nl ?? p.code}{' '}
                        {p.is_default && <StatusBadge color="blue">{t('parameters.isDefault')}</StatusBadge>}
                      </Table.Cell>
                      <Table.Cell className="text-right tabular-nums">{f.number(p.days)}</Table.Cell>
                      <Table.Cell>
                        <ActiveBadge active={p.is_active} />
                      </Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table>
            </PageSection>
            <PageSection title={t('parameters.otherSettings')}>
              {data.other_settings.length === 0 ? (
                <EmptyState title={t('table.empty')} description={t('parameters.otherSettingsHint')} />
              ) : (
                <Table>
                  <Table.Header>
                    <Table.Row>
                      <Table.HeaderCell>{t('parameters.key')}</Table.HeaderCell>
                      <Table.HeaderCell>{t('parameters.value')}</Table.HeaderCell>
                      <Table.HeaderCell>{t('parameters.type')}</Table.HeaderCell>
                      <Table.HeaderCell>{t('ops.updatedAt')}</Table.HeaderCell>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {data.other_settings.map((s) => (
                      <Table.Row key={s.key}>
                        <Table.Cell className="font-mono">{s.key}</Table.Cell>
                        <Table.Cell className="max-w-[320px] truncate">{s.value ?? '—'}</Table.Cell>
                        <Table.Cell>{s.value_type}</Table.Cell>
                        <Table.Cell>{f.date(s.updated_at, 'datetime')}</Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </Table>
              )}
            </PageSection>
          </>
        )
      }
    >
      {params.isPending ? (
        <SectionSpinner />
      ) : params.isError ? (
        <div className="px-6 py-4">
          <ErrorPanel error={params.error} onRetry={() => void params.refetch()} />
        </div>
      ) : (
        <ParameterForm data={params.data} />
      )}
    </Page>
  );
}
