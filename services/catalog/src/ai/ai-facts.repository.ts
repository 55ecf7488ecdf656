import { type ApltDatabase, type Kysely, sql } from '@aplt/db';

/** The tenant's figures and catalog facts the AI assistant answers and quotes from (aplt DB). */

export const openQuotations = async (db: Kysely<ApltDatabase>) =>
  (
    await sql<{ count: number; total: string; expiring_7d: number }>`
      SELECT count(*) AS count, coalesce(sum(total), 0)::text AS total,
        count(*) FILTER (WHERE valid_until <= CURRENT_DATE + 7) AS expiring_7d
      FROM aplt_quotation_headers WHERE status = 'open' AND valid_until >= CURRENT_DATE`.execute(db)
  ).rows[0];

export const overdueInvoices = async (db: Kysely<ApltDatabase>) =>
  (
    await sql<{ count: number; outstanding: string; oldest: string | null }>`
      SELECT count(*) AS count, coalesce(sum(total - paid_total - credited_total), 0)::text AS outstanding, min(due_date)::text AS oldest
      FROM aplt_invoice_headers
      WHERE document_type = 'invoice' AND status IN ('open', 'overdue') AND due_date < CURRENT_DATE
        AND total - paid_total - credited_total > 0`.execute(db)
  ).rows[0];

/** The five products sold most (by quantity, then revenue) on invoices that stand. */
export const bestSellers = async (db: Kysely<ApltDatabase>) =>
  (
    await sql<{ sku: string; description: string | null; quantity: string; revenue: string }>`
      SELECT coalesce(l.sku, '-') AS sku, max(l.description) AS description, sum(l.quantity)::text AS quantity, sum(l.line_total)::text AS revenue
      FROM aplt_invoice_lines l JOIN aplt_invoice_headers h ON h.id = l.invoice_id
      WHERE h.document_type = 'invoice' AND h.status <> 'cancelled' AND l.line_type = 'product'
      GROUP BY coalesce(l.sku, '-') ORDER BY sum(l.quantity) DESC, sum(l.line_total) DESC LIMIT 5`.execute(db)
  ).rows;

/** An active variant of the product, one whose colour name matches `colours` first. */
export const variantFor = async (db: Kysely<ApltDatabase>, productId: number, colours: string[]) =>
  (
    await sql<{ id: number; sku: string; color_name: string | null }>`
      SELECT id, sku, color_name FROM aplt_product_variants WHERE product_id = ${productId} AND is_active
      ORDER BY ${colours.length ? sql`(lower(coalesce(color_name, '')) ~ ${`(${colours.join('|')})`}) DESC,` : sql``} id LIMIT 1`.execute(
      db,
    )
  ).rows[0];

/** A print technique of the product, one whose name matches `pattern` first, else its default. */
export const techniqueFor = async (db: Kysely<ApltDatabase>, productId: number, pattern: string | null) =>
  (
    await sql<{
      id: number;
      code: string;
      name_nl: string;
      position_code: string;
      print_area: string | null;
      max_colours: number | null;
    }>`
      SELECT t.id, t.code, t.name_nl, pp.position_code, coalesce(pt.print_area, pp.print_area) AS print_area,
        pt.max_colours
      FROM aplt_product_techniques pt JOIN aplt_techniques t ON t.id = pt.technique_id
      JOIN aplt_print_positions pp ON pp.id = pt.print_position_id
      WHERE pt.product_id = ${productId}
      ORDER BY ${pattern ? sql`((t.name_nl || ' ' || coalesce(t.name_en, '')) ~* ${pattern}) DESC,` : sql``} pt.is_default DESC, pp.sort_order, pt.id
      LIMIT 1`.execute(db)
  ).rows[0];

/** The technique's price scale at this quantity and number of colours. */
export const printScale = async (
  db: Kysely<ApltDatabase>,
  techniqueId: number,
  quantity: number,
  colours: number,
) =>
  (
    await sql<{ price_per_unit: string; next_colour_price: string | null; setup_cost: string }>`
      SELECT price_per_unit, next_colour_price, setup_cost FROM aplt_technique_pricing
      WHERE technique_id = ${techniqueId} AND min_quantity <= ${quantity} AND (colours IS NULL OR colours = ${colours})
      ORDER BY min_quantity DESC, colours NULLS LAST LIMIT 1`.execute(db)
  ).rows[0];

/** The setup cost of the technique on this product, or its general one. */
export const setupCost = async (db: Kysely<ApltDatabase>, techniqueId: number, productId: number) =>
  (
    await sql<{ setup_cost: string; per_colour: boolean }>`
      SELECT setup_cost, per_colour FROM aplt_opstartkosten WHERE technique_id = ${techniqueId}
        AND (product_id = ${productId} OR product_id IS NULL) AND is_active ORDER BY product_id NULLS LAST LIMIT 1`.execute(
      db,
    )
  ).rows[0];
