import { ArrowDownTray } from '@medusajs/icons';
import { Button, Heading, Input, Label, Select, Skeleton, Table, Text } from '@medusajs/ui';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ErrorAlert } from '../../components/common/error-alert';
import { Page, PageSection } from '../../components/layout/page';
import { formatDecimal, sumDecimals } from '../../components/sales/decimal';
import {
  agingBuckets,
  type AgedReceivables,
  type ReportPeriod,
  reportPeriods,
  type Revenue,
  useAgedReceivables,
  useDashboard,
  useRevenue,
  useVatReport,
  type VatReport,
} from '../../hooks/api/reports';
import { useFormat } from '../../hooks/use-format';
import { BarChart } from './bar-chart';
import { downloadCsv, toCsv } from './csv';

const isoToday = () => new Date().toISOString().slice(0, 10);
const isDate = (v: string | null): v is string => Boolean(v && /^\d{4}-\d{2}-\d{2}$/.test(v));

/**
 * /app/reports: KPI tiles, revenue over time, aged receivables by bucket and VAT per rate, each
 * exportable as CSV. The dates live in the URL (`?as_of=&from=&to=&period=`), so a report can be
 * shared or reloaded as it is.
 */
export function Component() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const today = isoToday();
  const asOf = isDate(params.get('as_of')) ? params.get('as_of')! : today;
  const to = isDate(params.get('to')) ? params.get('to')! : today;
  const from = isDate(params.get('from')) ? params.get('from')! : `${to.slice(0, 4)}-01-01`;
  const period = (reportPeriods as readonly string[]).includes(params.get('period') ?? '')
    ? (params.get('period') as ReportPeriod)
    : 'month';
  const set = (key: string, value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  const rangeProblem = from > to ? t('reports.fromAfterTo') : null;

  return (
    <Page
      title={t('nav.items.reports')}
      description={t('reports.description')}
      testId="reports"
      sections={
        <>
          <RevenueSection from={from} to={to} period={period} disabled={Boolean(rangeProblem)} />
          <AgingSection asOf={asOf} />
          <VatSection from={from} to={to} period={period} disabled={Boolean(rangeProblem)} />
        </>
      }
    >
      <div className="flex flex-wrap items-end gap-4 px-6 py-4" data-testid="report-filters">
        <DateField
          id="report-as-of"
          label={t('reports.asOf')}
          value={asOf}
          onChange={(v) => set('as_of', v)}
        />
        <DateField id="report-from" label={t('reports.from')} value={from} onChange={(v) => set('from', v)} />
        <DateField id="report-to" label={t('reports.to')} value={to} onChange={(v) => set('to', v)} />
        <div className="flex w-40 flex-col gap-y-1">
          <Label htmlFor="report-period" size="xsmall" weight="plus" className="text-ui-fg-subtle">
            {t('reports.period')}
          </Label>
          <Select size="small" value={period} onValueChange={(v) => set('period', v)}>
            <Select.Trigger id="report-period">
              <Select.Value />
            </Select.Trigger>
            <Select.Content>
              {reportPeriods.map((p) => (
                <Select.Item key={p} value={p}>
                  {t(`reports.periods.${p}`)}
                </Select.Item>
              ))}
            </Select.Content>
          </Select>
        </div>
      </div>
      {rangeProblem && <ErrorAlert error={new Error(rangeProblem)} className="mx-6 mb-4" />}
      <Kpis asOf={asOf} />
    </Page>
  );
}

function DateField({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <div className="flex w-44 flex-col gap-y-1">
      <Label htmlFor={id} size="xsmall" weight="plus" className="text-ui-fg-subtle">
        {label}
      </Label>
      <Input id={id} size="small" type="date" value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

/** The dashboard's KPI tiles, as of the chosen day. */
function Kpis({ asOf }: { asOf: string }) {
  const { t } = useTranslation();
  const f = useFormat();
  const dashboard = useDashboard(asOf);
  if (dashboard.error)
    return (
      <ErrorAlert error={dashboard.error} onRetry={() => void dashboard.refetch()} className="mx-6 my-4" />
    );
  const d = dashboard.data;
  const tiles: Array<{ key: string; label: string; value: ReactNode; hint: ReactNode; to?: string }> = d
    ? [
        {
          key: 'open-quotations',
          label: t('reports.kpi.openQuotations'),
          value: f.money(d.open_quotations_value),
          hint: t('reports.kpi.openQuotationsHint', { count: d.open_quotations_count }),
          to: '/quotations?status=open',
        },
        {
          key: 'conversion',
          label: t('reports.kpi.conversion'),
          value: f.percent(Number(d.conversion_rate) * 100),
          hint: t('reports.kpi.conversionHint', {
            accepted: f.number(d.quotations_accepted),
            created: f.number(d.quotations_created),
          }),
        },
        {
          key: 'revenue',
          label: t('reports.kpi.revenueMonth'),
          value: f.money(d.revenue_this_month),
          hint: t('reports.kpi.exclVat'),
        },
        {
          key: 'overdue',
          label: t('reports.kpi.overdue'),
          value: f.money(d.overdue_amount),
          hint: t('reports.kpi.overdueHint', { count: d.overdue_invoices }),
          to: '/invoices?status=overdue',
        },
        {
          key: 'receivables',
          label: t('reports.kpi.receivables'),
          value: f.money(d.receivables_total),
          hint: t('reports.kpi.receivablesHint'),
        },
      ]
    : [];
  const exportCsv = () =>
    d &&
    downloadCsv(
      `kpis-${asOf}.csv`,
      toCsv(
        [
          'as_of',
          'open_quotations_value',
          'open_quotations_count',
          'conversion_rate',
          'revenue_this_month',
          'overdue_amount',
          'overdue_invoices',
          'receivables_total',
        ],
        [
          [
            d.as_of,
            d.open_quotations_value,
            d.open_quotations_count,
            d.conversion_rate,
            d.revenue_this_month,
            d.overdue_amount,
            d.overdue_invoices,
            d.receivables_total,
          ],
        ],
      ),
    );
  return (
    <div className="flex flex-col gap-y-3 px-6 py-4">
      <div className="flex items-center justify-between">
        <Heading level="h2">{t('reports.kpi.title')}</Heading>
        <CsvButton onClick={exportCsv} disabled={!d} testId="csv-kpis" />
      </div>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-5" data-testid="kpi-tiles">
        {d
          ? tiles.map((tile) => {
              const body = (
                <>
                  <Text size="xsmall" className="text-ui-fg-muted">
                    {tile.label}
                  </Text>
                  <Text size="xlarge" weight="plus" leading="compact" data-testid={`kpi-${tile.key}`}>
                    {tile.value}
                  </Text>
                  <Text size="xsmall" className="text-ui-fg-subtle">
                    {tile.hint}
                  </Text>
                </>
              );
              return tile.to ? (
                <Link
                  key={tile.key}
                  to={tile.to}
                  className="bg-ui-bg-base shadow-elevation-card-rest hover:shadow-elevation-card-hover focus-visible:shadow-borders-focus flex flex-col gap-y-1 rounded-lg px-4 py-3 outline-none transition-shadow"
                >
                  {body}
                </Link>
              ) : (
                <div
                  key={tile.key}
                  className="bg-ui-bg-base shadow-elevation-card-rest flex flex-col gap-y-1 rounded-lg px-4 py-3"
                >
                  {body}
                </div>
              );
            })
          : Array.from({ length: 5 }, (_, i) => <Skeleton key={i} className="h-[84px] w-full rounded-lg" />)}
      </div>
    </div>
  );
}

function CsvButton({
  onClick,
  disabled,
  testId,
}: {
  onClick: () => void;
  disabled?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Button size="small" variant="secondary" onClick={onClick} disabled={disabled} data-testid={testId}>
      <ArrowDownTray />
      {t('reports.csv')}
    </Button>
  );
}

const periodLabel = (iso: string, period: ReportPeriod, language: string) => {
  const [y, m] = iso.split('-').map(Number);
  if (period === 'year') return String(y);
  if (period === 'quarter') return `Q${Math.floor((m! - 1) / 3) + 1} ${y}`;
  return new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : 'nl-NL', {
    month: 'short',
    year: '2-digit',
  }).format(new Date(y!, m! - 1, 1));
};

/**
 * Every period from `from` to `to` as the API keys them (the first day of the month, quarter or
 * year), so months without revenue show as an empty bar instead of disappearing.
 */
function periodsBetween(from: string, to: string, period: ReportPeriod): string[] {
  const step = period === 'year' ? 12 : period === 'quarter' ? 3 : 1;
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  let month = period === 'year' ? 0 : Math.floor((fm - 1) / step) * step; // 0-based
  let year = fy;
  const out: string[] = [];
  while ((year < ty || (year === ty && month <= tm - 1)) && out.length < 400) {
    out.push(`${year}-${String(month + 1).padStart(2, '0')}-01`);
    month += step;
    if (month >= 12) {
      year += Math.floor(month / 12);
      month %= 12;
    }
  }
  return out;
}

/** Net revenue (invoices minus credit notes, excl. VAT) per period, as bars. */
function RevenueSection({
  from,
  to,
  period,
  disabled,
}: {
  from: string;
  to: string;
  period: ReportPeriod;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const revenue = useRevenue({ from, to, period });
  const r: Revenue | undefined = disabled ? undefined : revenue.data;
  // Whole euros on the bars; thousands shortened (€ 12,3K) so long runs of months stay readable.
  const barLabel = (v: string) =>
    Math.abs(Number(v)) >= 10_000
      ? f.number(v, { style: 'currency', currency: 'EUR', notation: 'compact', maximumFractionDigits: 1 })
      : f.number(v, { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 });
  return (
    <PageSection
      title={t('reports.revenue.title')}
      actions={
        <CsvButton
          testId="csv-revenue"
          disabled={!r}
          onClick={() =>
            r &&
            downloadCsv(
              `revenue-${from}-${to}-${period}.csv`,
              toCsv(
                ['period', 'invoiced', 'credited', 'net_revenue', 'invoices', 'credit_notes'],
                r.data.map((row) => [
                  row.period,
                  row.invoiced,
                  row.credited,
                  row.net_revenue,
                  row.invoices,
                  row.credit_notes,
                ]),
              ),
            )
          }
        />
      }
    >
      <div className="flex flex-col gap-y-3 px-6 py-4">
        {!disabled && <ErrorAlert error={revenue.error} onRetry={() => void revenue.refetch()} />}
        {r ? (
          <>
            <Text size="small" className="text-ui-fg-subtle">
              {t('reports.revenue.total', { amount: f.money(r.total) })}
            </Text>
            {r.data.length ? (
              <BarChart
                testId="revenue-chart"
                title={t('reports.revenue.title')}
                slot={period === 'month' ? 72 : 110}
                bars={periodsBetween(r.from, r.to, period).map((key) => {
                  const net = r.data.find((row) => row.period === key)?.net_revenue ?? '0';
                  return {
                    key,
                    label: periodLabel(key, period, f.language),
                    value: Number(net),
                    display: Number(net) ? barLabel(net) : '',
                    tone: Number(net) < 0 ? 'danger' : 'default',
                  };
                })}
              />
            ) : (
              <Text size="small" className="text-ui-fg-muted">
                {t('reports.noData')}
              </Text>
            )}
          </>
        ) : (
          !revenue.error && !disabled && <Skeleton className="h-[220px] w-full" />
        )}
      </div>
    </PageSection>
  );
}

/** Open receivables by days past due (as of the chosen day), as bars, and per customer. */
function AgingSection({ asOf }: { asOf: string }) {
  const { t } = useTranslation();
  const f = useFormat();
  const aging = useAgedReceivables(asOf);
  const a: AgedReceivables | undefined = aging.data;
  return (
    <PageSection
      title={t('reports.aging.title')}
      actions={
        <CsvButton
          testId="csv-aging"
          disabled={!a}
          onClick={() =>
            a &&
            downloadCsv(
              `aged-receivables-${asOf}.csv`,
              toCsv(
                ['invoice', 'customer', 'issue_date', 'due_date', 'days_overdue', 'bucket', 'outstanding'],
                a.invoices.map((i) => [
                  i.invoice_number,
                  i.customer,
                  i.issue_date,
                  i.due_date,
                  i.days_overdue,
                  i.bucket,
                  i.outstanding,
                ]),
              ),
            )
          }
        />
      }
    >
      <div className="flex flex-col gap-y-3 px-6 py-4">
        <ErrorAlert error={aging.error} onRetry={() => void aging.refetch()} />
        {a ? (
          <>
            <Text size="small" className="text-ui-fg-subtle" data-testid="aging-total">
              {t('reports.aging.total', { amount: f.money(a.total), notDue: f.money(a.not_yet_due) })}
            </Text>
            <BarChart
              testId="aging-chart"
              title={t('reports.aging.title')}
              bars={agingBuckets.map((b, i) => ({
                key: b,
                label: t(`reports.aging.buckets.${b}` as 'reports.aging.buckets.0-30'),
                value: Number(a.buckets[b]),
                display: f.money(a.buckets[b]),
                tone: (['muted', 'default', 'warning', 'danger', 'danger'] as const)[i],
              }))}
            />
            {a.customers.length > 0 && (
              <div className="overflow-x-auto">
                <Table data-testid="aging-customers">
                  <Table.Header>
                    <Table.Row>
                      <Table.HeaderCell>{t('sales.fields.customer')}</Table.HeaderCell>
                      {agingBuckets.map((b) => (
                        <Table.HeaderCell key={b} className="text-right">
                          {t(`reports.aging.buckets.${b}` as 'reports.aging.buckets.0-30')}
                        </Table.HeaderCell>
                      ))}
                      <Table.HeaderCell className="text-right">{t('sales.totals.total')}</Table.HeaderCell>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {a.customers.map((c) => (
                      <Table.Row key={c.customer_id}>
                        <Table.Cell>
                          <Link
                            className="text-ui-fg-interactive hover:underline"
                            to={`/customers/${c.customer_id}`}
                          >
                            {c.customer ?? `#${c.customer_id}`}
                          </Link>
                        </Table.Cell>
                        {agingBuckets.map((b) => (
                          <Table.Cell key={b} className="text-right">
                            {Number(c[b]) ? f.money(c[b]) : '—'}
                          </Table.Cell>
                        ))}
                        <Table.Cell className="text-right font-medium">{f.money(c.total)}</Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </Table>
              </div>
            )}
          </>
        ) : (
          !aging.error && <Skeleton className="h-[220px] w-full" />
        )}
      </div>
    </PageSection>
  );
}

/** VAT per rate for the chosen period (credit notes negative), then per period and rate. */
function VatSection({
  from,
  to,
  period,
  disabled,
}: {
  from: string;
  to: string;
  period: ReportPeriod;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const vat = useVatReport({ from, to, period });
  const v: VatReport | undefined = disabled ? undefined : vat.data;
  const byRate = new Map<string, { category: string; rate: string; taxable: string[]; vat: string[] }>();
  for (const row of v?.data ?? []) {
    const key = `${row.vat_category}-${row.vat_rate}`;
    const entry = byRate.get(key) ?? { category: row.vat_category, rate: row.vat_rate, taxable: [], vat: [] };
    entry.taxable.push(row.taxable_amount);
    entry.vat.push(row.vat_amount);
    byRate.set(key, entry);
  }
  const rates = [...byRate.values()].sort((a, b) => Number(b.rate) - Number(a.rate));
  return (
    <PageSection
      title={t('reports.vat.title')}
      actions={
        <CsvButton
          testId="csv-vat"
          disabled={!v}
          onClick={() =>
            v &&
            downloadCsv(
              `vat-${from}-${to}-${period}.csv`,
              toCsv(
                ['period', 'vat_category', 'vat_rate', 'taxable_amount', 'vat_amount'],
                v.data.map((r) => [r.period, r.vat_category, r.vat_rate, r.taxable_amount, r.vat_amount]),
              ),
            )
          }
        />
      }
    >
      <div className="flex flex-col gap-y-3 py-4">
        {!disabled && <ErrorAlert error={vat.error} onRetry={() => void vat.refetch()} className="mx-6" />}
        {v ? (
          rates.length ? (
            <Table data-testid="vat-report">
              <Table.Header>
                <Table.Row>
                  <Table.HeaderCell>{t('sales.vat.rate')}</Table.HeaderCell>
                  <Table.HeaderCell>{t('sales.vat.category')}</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">{t('sales.vat.taxable')}</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">{t('sales.vat.amount')}</Table.HeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {rates.map((r) => (
                  <Table.Row key={`${r.category}-${r.rate}`} data-vat-rate={Number(r.rate)}>
                    <Table.Cell>{f.percent(r.rate)}</Table.Cell>
                    <Table.Cell>
                      {t(`sales.vat.categories.${r.category}` as 'sales.vat.categories.S', {
                        defaultValue: r.category,
                      })}
                    </Table.Cell>
                    <Table.Cell className="text-right">
                      {f.money(formatDecimal(sumDecimals(r.taxable)))}
                    </Table.Cell>
                    <Table.Cell className="text-right">
                      {f.money(formatDecimal(sumDecimals(r.vat)))}
                    </Table.Cell>
                  </Table.Row>
                ))}
                <Table.Row>
                  <Table.Cell className="font-medium">{t('sales.totals.total')}</Table.Cell>
                  <Table.Cell />
                  <Table.Cell className="text-right font-medium">
                    {f.money(formatDecimal(sumDecimals(v.data.map((r) => r.taxable_amount))))}
                  </Table.Cell>
                  <Table.Cell className="text-right font-medium">{f.money(v.vat_total)}</Table.Cell>
                </Table.Row>
              </Table.Body>
            </Table>
          ) : (
            <Text size="small" className="text-ui-fg-muted px-6">
              {t('reports.noData')}
            </Text>
          )
        ) : (
          !vat.error && !disabled && <Skeleton className="mx-6 h-[120px]" />
        )}
      </div>
    </PageSection>
  );
}
