import { type Kysely, sql } from 'kysely';
import type { ApltDatabase } from '@aplt/db';

/**
 * Read access for document output. Kept apart from the documents core on purpose: output only
 * reads the tables (and records where an invoice PDF was stored), so it has its own thin queries.
 */
type Db = Kysely<ApltDatabase>;

export type HeaderKind = 'quotation' | 'order' | 'invoice' | 'credit_note';

type KeyOfAny<U> = U extends unknown ? keyof U : never;
/**
 * One row type for the rows of several tables: the fields all of them have as they are, the
 * others optional (absent from the rows of the tables without them).
 */
export type AnyOf<U> = Pick<U, keyof U> & {
  [K in Exclude<KeyOfAny<U>, keyof U>]?: U extends { [P in K]: infer V } ? V : never;
};

export type Header = AnyOf<NonNullable<Awaited<ReturnType<typeof headerOf>>>>;
export type Line = AnyOf<Awaited<ReturnType<typeof findLines>>[number]>;

export const findHeader = (db: Db, kind: HeaderKind, id: number): Promise<Header | undefined> =>
  headerOf(db, kind, id);

async function headerOf(db: Db, kind: HeaderKind, id: number) {
  switch (kind) {
    case 'quotation':
      return db.selectFrom('aplt_quotation_headers').selectAll().where('id', '=', id).executeTakeFirst();
    case 'order':
      return db
        .selectFrom('aplt_order_headers as o')
        .leftJoin('aplt_quotation_headers as q', 'q.id', 'o.quotation_id')
        .selectAll('o')
        .select('q.quotation_number')
        .where('o.id', '=', id)
        .executeTakeFirst();
    case 'invoice':
    case 'credit_note':
      return (
        db
          .selectFrom('aplt_invoice_headers as i')
          .leftJoin('aplt_order_headers as o', 'o.id', 'i.order_id')
          .leftJoin('aplt_invoice_headers as c', 'c.id', 'i.credited_invoice_id')
          .leftJoin('aplt_payment_terms as t', 't.id', 'i.payment_term_id')
          .selectAll('i')
          .select([
            'o.order_number',
            'c.invoice_number as credited_number',
            'c.issue_date as credited_date',
            't.name_nl as term_name_nl',
            't.name_en as term_name_en',
            't.name_de as term_name_de',
          ])
          .where('i.id', '=', id)
          // The invoices endpoints serve invoices and proformas; credit notes have their own.
          .where('i.document_type', kind === 'credit_note' ? '=' : '<>', 'credit_note')
          .executeTakeFirst()
      );
  }
}

/** The catalog's names and picture of a line's product (`p`) and variant (`v`). */
const productColumns = [
  'p.name_nl as product_name_nl',
  'p.name_en as product_name_en',
  'p.name_de as product_name_de',
  sql<string | null>`coalesce(v.image_url, p.image_url, p.images->>0)`.as('catalog_image_url'),
] as const;

export async function findLines(db: Db, kind: HeaderKind, documentId: number) {
  switch (kind) {
    case 'quotation':
      return db
        .selectFrom('aplt_quotation_lines as l')
        .leftJoin('aplt_products as p', 'p.id', 'l.product_id')
        .leftJoin('aplt_product_variants as v', 'v.id', 'l.variant_id')
        .selectAll('l')
        .select(productColumns)
        .where('l.quotation_id', '=', documentId)
        .orderBy('l.line_no')
        .orderBy('l.id')
        .execute();
    case 'order':
      return db
        .selectFrom('aplt_order_lines as l')
        .leftJoin('aplt_products as p', 'p.id', 'l.product_id')
        .leftJoin('aplt_product_variants as v', 'v.id', 'l.variant_id')
        .selectAll('l')
        .select(productColumns)
        .where('l.order_id', '=', documentId)
        .orderBy('l.line_no')
        .orderBy('l.id')
        .execute();
    case 'invoice':
    case 'credit_note':
      return db
        .selectFrom('aplt_invoice_lines as l')
        .leftJoin('aplt_products as p', 'p.id', 'l.product_id')
        .leftJoin('aplt_product_variants as v', 'v.id', 'l.variant_id')
        .selectAll('l')
        .select(productColumns)
        .where('l.invoice_id', '=', documentId)
        .orderBy('l.line_no')
        .orderBy('l.id')
        .execute();
  }
}

export async function findQuotationSetupCosts(db: Db, lineIds: number[]) {
  if (lineIds.length === 0) return [];
  return db
    .selectFrom('aplt_quotation_line_setup_costs')
    .selectAll()
    .where('quotation_line_id', 'in', lineIds)
    .orderBy('id')
    .execute();
}

export async function findVatSummary(db: Db, invoiceId: number) {
  return db
    .selectFrom('aplt_invoice_vat_summary')
    .selectAll()
    .where('invoice_id', '=', invoiceId)
    .orderBy('vat_rate', 'desc')
    .orderBy('vat_category')
    .execute();
}

export async function findCustomer(db: Db, id: number | null) {
  if (id === null || id === undefined) return undefined;
  return db.selectFrom('aplt_customers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The brand's id: the document's own, else the customer's, else the default brand. */
export async function resolveBrandId(db: Db, ...candidates: Array<number | null | undefined>) {
  const given = candidates.find((c) => c !== null && c !== undefined);
  if (given !== undefined && given !== null) return given;
  const fallback = await db
    .selectFrom('aplt_brands')
    .select('id')
    .orderBy('is_default', 'desc')
    .orderBy('id')
    .executeTakeFirst();
  return fallback?.id;
}

export async function findBrand(db: Db, brandId: number | undefined) {
  if (brandId === undefined) return undefined;
  return db.selectFrom('aplt_brands').selectAll().where('id', '=', brandId).executeTakeFirst();
}

export async function findCmsSettings(db: Db, brandId: number | undefined): Promise<Record<string, string>> {
  if (brandId === undefined) return {};
  const rows = await db
    .selectFrom('aplt_cms_settings')
    .select(['key', 'value'])
    .where('brand_id', '=', brandId)
    .execute();
  return Object.fromEntries(rows.flatMap((r) => (r.value !== null ? [[r.key, r.value]] : [])));
}

/**
 * Records the stored PDF of an invoice or credit note, only if none was recorded yet: the first
 * render wins, so two simultaneous first requests can never leave two different "originals".
 * Returns the path that is recorded afterwards.
 */
export async function recordInvoicePdf(
  db: Db,
  invoiceId: number,
  pdf: { path: string; sha256: string },
): Promise<{ pdf_path: string; pdf_sha256: string | null }> {
  const updated = await db
    .updateTable('aplt_invoice_headers')
    .set({ pdf_path: pdf.path, pdf_sha256: pdf.sha256, pdf_generated_at: sql`now()` })
    .where('id', '=', invoiceId)
    .where('pdf_path', 'is', null)
    .returning(['pdf_path', 'pdf_sha256'])
    .executeTakeFirst();
  if (updated) return updated as { pdf_path: string; pdf_sha256: string | null };
  return db
    .selectFrom('aplt_invoice_headers')
    .select(['pdf_path', 'pdf_sha256'])
    .where('id', '=', invoiceId)
    .executeTakeFirstOrThrow() as Promise<{ pdf_path: string; pdf_sha256: string | null }>;
}

/** Replaces a stored PDF whose file was lost (the recorded one cannot be served any more). */
export async function replaceInvoicePdf(db: Db, invoiceId: number, pdf: { path: string; sha256: string }) {
  await db
    .updateTable('aplt_invoice_headers')
    .set({ pdf_path: pdf.path, pdf_sha256: pdf.sha256, pdf_generated_at: sql`now()` })
    .where('id', '=', invoiceId)
    .execute();
}
