import type { StoreProduct } from '@lib/data/catalog';
import { type Lang, money } from '@lib/i18n';
import { cartTexts } from '@modules/cart/texts';

/** One technique as the store API's product detail gives it (`print_techniques`). */
export interface PrintTechnique {
  code: string;
  name: string;
  pricing_type: string;
  max_colours: number | null;
  full_colour: boolean;
  positions: Array<{
    code: string;
    name: string | null;
    print_area: string | null;
    max_colours: number | null;
  }>;
  setup_cost: string | null;
  setup_per_colour: boolean;
  prices: Array<{
    min_quantity: number;
    colours: number | null;
    price_per_unit: string;
    next_colour_price: string | null;
    area_from: string | null;
    area_to: string | null;
  }>;
}

export const printTechniquesOf = (product: StoreProduct): PrintTechnique[] =>
  (product as StoreProduct & { print_techniques?: PrintTechnique[] }).print_techniques ?? [];

/**
 * The scale row that applies at `quantity` for one colour: the highest min_quantity not above
 * it, a row for exactly one colour before one for any number (as the quotation pricing picks).
 */
function priceAt(t: PrintTechnique, quantity: number) {
  const rows = t.prices.filter((p) => p.min_quantity <= quantity && (p.colours === null || p.colours === 1));
  rows.sort(
    (a, b) => b.min_quantity - a.min_quantity || (a.colours === null ? 1 : 0) - (b.colours === null ? 1 : 0),
  );
  return rows[0];
}

/** The product's print techniques: positions with their print size, colours, price at the quantity, setup. */
export function PrintTechniques({
  techniques,
  lang,
  quantity,
}: {
  techniques: PrintTechnique[];
  lang: Lang;
  quantity: number;
}) {
  const tx = cartTexts(lang);
  if (techniques.length === 0) return <p className="muted">{tx.noTechniques}</p>;
  return (
    <table className="techniques" data-testid="techniques">
      <thead>
        <tr>
          <th>{tx.technique}</th>
          <th>{tx.position}</th>
          <th>{tx.printAt(quantity)}</th>
          <th>{tx.setupCost}</th>
        </tr>
      </thead>
      <tbody>
        {techniques.map((t) => {
          const row = priceAt(t, quantity);
          const colours = t.full_colour ? tx.fullColour : t.max_colours ? tx.maxColours(t.max_colours) : null;
          return (
            <tr key={t.code} data-technique={t.code}>
              <td>
                <strong>{t.name}</strong>
                {colours && <div className="muted small">{colours}</div>}
              </td>
              <td>
                {t.positions.map((p) => (
                  <div key={p.code} data-position={p.code}>
                    {p.name ?? p.code}
                    {p.print_area && (
                      <span className="muted small">
                        {' '}
                        {tx.printArea} {p.print_area} mm
                      </span>
                    )}
                  </div>
                ))}
              </td>
              <td data-testid="technique-price">
                {row ? (
                  <>
                    {money(row.price_per_unit, lang)}
                    {row.colours === null && row.next_colour_price && Number(row.next_colour_price) > 0 && (
                      <div className="muted small">
                        + {money(row.next_colour_price, lang)} / {tx.extraColour}
                      </div>
                    )}
                  </>
                ) : (
                  '—'
                )}
              </td>
              <td data-testid="technique-setup">
                {t.setup_cost ? (
                  <>
                    {money(t.setup_cost, lang)}
                    {t.setup_per_colour && <span className="muted small"> {tx.perColour}</span>}
                  </>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
