import type { ApltDatabase, Selectable } from '@aplt/db';

/** The fields copied; order lines and invoice lines have them alike. */
type SourceLine = Pick<
  Selectable<ApltDatabase['aplt_invoice_lines']>,
  | 'line_type'
  | 'product_id'
  | 'variant_id'
  | 'sku'
  | 'description'
  | 'unit_price'
  | 'discount_percent'
  | 'technique_code'
  | 'technique_name'
  | 'print_position'
  | 'print_area'
  | 'print_colours'
  | 'print_unit_price'
  | 'vat_code_id'
  | 'vat_rate'
>;

/**
 * The product and print fields a derived line (order line -> invoice line, invoice line ->
 * credit-note line) takes over from its source unchanged, with the new quantity. Amounts and
 * the link to the source line are the caller's.
 */
export function copiedLineFields(l: SourceLine, quantity: number) {
  return {
    line_type: l.line_type,
    product_id: l.product_id,
    variant_id: l.variant_id,
    sku: l.sku,
    description: l.description,
    quantity,
    unit_price: String(l.unit_price),
    discount_percent: String(l.discount_percent),
    technique_code: l.technique_code,
    technique_name: l.technique_name,
    print_position: l.print_position,
    print_area: l.print_area,
    print_colours: l.print_colours,
    print_unit_price: String(l.print_unit_price),
    vat_code_id: l.vat_code_id,
    vat_rate: String(l.vat_rate),
  };
}
