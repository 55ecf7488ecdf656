import { Table, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import type { VatSummaryRow } from '../../hooks/api/invoices';
import { useFormat } from '../../hooks/use-format';
import { formatDecimal, sumDecimals } from './decimal';

/** VAT per rate and category (one row each, rounded once per row: EN 16931 BR-CO-17). */
export function VatSummary({ rows, note }: { rows: VatSummaryRow[]; note?: string | null }) {
  const { t } = useTranslation();
  const f = useFormat();
  return (
    <div className="flex flex-col">
      <Table data-testid="vat-summary">
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>{t('sales.vat.rate')}</Table.HeaderCell>
            <Table.HeaderCell>{t('sales.vat.category')}</Table.HeaderCell>
            <Table.HeaderCell className="text-right">{t('sales.vat.taxable')}</Table.HeaderCell>
            <Table.HeaderCell className="text-right">{t('sales.vat.amount')}</Table.HeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((r) => (
            <Table.Row key={`${r.vat_category}-${r.vat_rate}`} data-vat-rate={Number(r.vat_rate)}>
              <Table.Cell>{f.percent(r.vat_rate)}</Table.Cell>
              <Table.Cell>
                {t(`sales.vat.categories.${r.vat_category}` as 'sales.vat.categories.S', {
                  defaultValue: r.vat_category,
                })}
                {r.exemption_reason ? ` · ${r.exemption_reason}` : ''}
              </Table.Cell>
              <Table.Cell className="text-right">{f.money(r.taxable_amount)}</Table.Cell>
              <Table.Cell className="text-right">{f.money(r.vat_amount)}</Table.Cell>
            </Table.Row>
          ))}
          <Table.Row>
            <Table.Cell className="font-medium">{t('sales.totals.total')}</Table.Cell>
            <Table.Cell />
            <Table.Cell className="text-right font-medium">
              {f.money(formatDecimal(sumDecimals(rows.map((r) => r.taxable_amount))))}
            </Table.Cell>
            <Table.Cell className="text-right font-medium">
              {f.money(formatDecimal(sumDecimals(rows.map((r) => r.vat_amount))))}
            </Table.Cell>
          </Table.Row>
        </Table.Body>
      </Table>
      {note && (
        <Text size="small" className="text-ui-fg-subtle px-6 py-3">
          {note}
        </Text>
      )}
    </div>
  );
}
