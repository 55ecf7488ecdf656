import { clx, Table, Text } from '@medusajs/ui';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocumentLine } from '../../hooks/api/quotations';
import { useFormat } from '../../hooks/use-format';

/** Label and value pairs of a document's header, two columns on wide screens. */
export function Fields({ items }: { items: Array<{ label: string; value: ReactNode; testId?: string }> }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 px-6 py-4 sm:grid-cols-2 xl:grid-cols-3">
      {items.map((item) => (
        <div key={item.label} className="flex flex-col gap-y-0.5" data-testid={item.testId}>
          <dt>
            <Text size="xsmall" className="text-ui-fg-muted">
              {item.label}
            </Text>
          </dt>
          <dd>
            <Text size="small" leading="compact" as="div">
              {item.value === null || item.value === undefined || item.value === '' ? '—' : item.value}
            </Text>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A line's print: technique, position and colours in one phrase. */
export function printSummary(
  line: DocumentLine,
  t: (k: 'sales.lines.colours' | 'sales.lines.position', o: { count?: number; position?: string }) => string,
) {
  const parts = [
    line.technique_name || line.technique_code,
    line.print_position ? t('sales.lines.position', { position: line.print_position }) : null,
    line.print_colours ? t('sales.lines.colours', { count: line.print_colours }) : null,
  ].filter(Boolean);
  return parts.join(' · ');
}

/** The lines of a document: description with SKU and print, quantity, prices, VAT rate and amount. */
export function LinesTable<L extends DocumentLine>({
  lines,
  extraColumns = [],
  testId,
}: {
  lines: L[];
  extraColumns?: Array<{ id: string; header: ReactNode; cell: (l: L) => ReactNode }>;
  testId?: string;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  return (
    <div className="overflow-x-auto">
      <Table data-testid={testId}>
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>{t('sales.lines.description')}</Table.HeaderCell>
            <Table.HeaderCell className="text-right">{t('sales.lines.quantity')}</Table.HeaderCell>
            <Table.HeaderCell className="text-right">{t('sales.lines.unitPrice')}</Table.HeaderCell>
            <Table.HeaderCell className="text-right">{t('sales.lines.printPrice')}</Table.HeaderCell>
            <Table.HeaderCell className="text-right">{t('sales.lines.vatRate')}</Table.HeaderCell>
            {extraColumns.map((c) => (
              <Table.HeaderCell key={c.id} className="text-right">
                {c.header}
              </Table.HeaderCell>
            ))}
            <Table.HeaderCell className="text-right">{t('sales.lines.amount')}</Table.HeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {lines.map((l) => (
            <Table.Row key={l.id} data-line-id={l.id}>
              <Table.Cell className="max-w-[420px] py-2">
                <div className="flex flex-col">
                  <Text size="small" leading="compact" weight="plus" className="whitespace-normal">
                    {l.description || l.sku || t(`sales.lineType.${l.line_type}` as 'sales.lineType.product')}
                  </Text>
                  <Text size="xsmall" className="text-ui-fg-muted whitespace-normal">
                    {[
                      l.sku,
                      printSummary(l, t),
                      l.line_type !== 'product'
                        ? t(`sales.lineType.${l.line_type}` as 'sales.lineType.product')
                        : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </Text>
                </div>
              </Table.Cell>
              <Table.Cell className="text-right">{f.number(l.quantity)}</Table.Cell>
              <Table.Cell className="text-right">{f.money(l.unit_price)}</Table.Cell>
              <Table.Cell className="text-right">
                {Number(l.print_unit_price) ? f.money(l.print_unit_price) : '—'}
              </Table.Cell>
              <Table.Cell className="text-right">{f.percent(l.vat_rate)}</Table.Cell>
              {extraColumns.map((c) => (
                <Table.Cell key={c.id} className="text-right">
                  {c.cell(l)}
                </Table.Cell>
              ))}
              <Table.Cell className="text-right">{f.money(l.line_total)}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table>
    </div>
  );
}

/** The totals block under the lines: label and amount rows, the last one (the total) bold. */
export function Totals({
  rows,
  testId,
}: {
  rows: Array<{ label: ReactNode; value: ReactNode; strong?: boolean; testId?: string } | false | null>;
  testId?: string;
}) {
  return (
    <div className="flex justify-end px-6 py-4" data-testid={testId}>
      <dl className="flex w-full max-w-sm flex-col gap-y-1.5">
        {rows.filter(Boolean).map((row, i) => {
          const r = row as { label: ReactNode; value: ReactNode; strong?: boolean; testId?: string };
          return (
            <div
              key={i}
              className={clx('flex items-center justify-between gap-x-4', r.strong && 'border-t pt-2')}
              data-testid={r.testId}
            >
              <dt>
                <Text
                  size="small"
                  className={r.strong ? 'text-ui-fg-base' : 'text-ui-fg-subtle'}
                  weight={r.strong ? 'plus' : 'regular'}
                >
                  {r.label}
                </Text>
              </dt>
              <dd>
                <Text size="small" weight={r.strong ? 'plus' : 'regular'}>
                  {r.value}
                </Text>
              </dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}

/** A customer's name as documents carry it: company, else the person, else the e-mail. */
export const customerLabel = (d: {
  customer_company?: string | null;
  customer_name?: string | null;
  customer_email?: string | null;
}) => d.customer_company || d.customer_name || d.customer_email || '—';
