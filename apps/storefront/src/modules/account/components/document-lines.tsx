import type { DocumentLine, Totals } from '@lib/data/documents';
import { type Lang, money } from '@lib/i18n';
import { cartTexts } from '@modules/cart/texts';
import { at } from '../texts';

const amount = (lang: Lang, v: string | null | undefined) => (v == null ? '—' : money(v, lang));

/** The lines and totals of a quotation, order or invoice. */
/**
 * A quotation keeps setup costs and shipping out of its lines (its subtotal is the goods); orders
 * and invoices carry them as lines.
 */
export function DocumentLines({
  lang,
  doc,
  quotation,
}: {
  lang: Lang;
  doc: Totals & { lines: DocumentLine[]; setup_cost_total?: string | null };
  quotation?: boolean;
}) {
  const tx = at(lang);
  const printPrice = cartTexts(lang).printPrice;
  return (
    <table className="doc-table lines">
      <thead>
        <tr>
          <th>{tx.description}</th>
          <th className="num">{tx.quantity}</th>
          <th className="num">{tx.unitPrice}</th>
          <th className="num">{tx.lineTotal}</th>
        </tr>
      </thead>
      <tbody>
        {doc.lines.map((l) => (
          <tr key={l.id}>
            <td>
              {l.description ?? l.sku ?? '—'}
              {l.sku && l.description ? <span className="muted"> · {l.sku}</span> : null}
              {l.technique_name ? <div className="muted small">{l.technique_name}</div> : null}
              {l.print_unit_price && Number(l.print_unit_price) !== 0 ? (
                // Without it the line total (goods + printing per piece) does not follow from the unit price.
                <div className="muted small" data-testid="line-print-price">
                  {printPrice} {amount(lang, l.print_unit_price)}
                </div>
              ) : null}
            </td>
            <td className="num">{l.line_type === 'text' ? '' : String(l.quantity)}</td>
            <td className="num">{l.unit_price ? amount(lang, l.unit_price) : ''}</td>
            <td className="num">{l.line_total ? amount(lang, l.line_total) : ''}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <td colSpan={3}>{tx.subtotal}</td>
          <td className="num">{amount(lang, doc.subtotal)}</td>
        </tr>
        {quotation && doc.setup_cost_total && Number(doc.setup_cost_total) !== 0 ? (
          <tr>
            <td colSpan={3}>{tx.setupCosts}</td>
            <td className="num">{amount(lang, doc.setup_cost_total)}</td>
          </tr>
        ) : null}
        {quotation && doc.shipping_cost != null ? (
          <tr>
            <td colSpan={3}>{tx.shipping}</td>
            <td className="num">{amount(lang, doc.shipping_cost)}</td>
          </tr>
        ) : null}
        <tr>
          <td colSpan={3}>{tx.vat}</td>
          <td className="num">{amount(lang, doc.vat_total)}</td>
        </tr>
        <tr className="grand">
          <td colSpan={3}>{tx.total}</td>
          <td className="num">{amount(lang, doc.total)}</td>
        </tr>
      </tfoot>
    </table>
  );
}
