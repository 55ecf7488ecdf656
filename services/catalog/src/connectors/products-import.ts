import type { PgClient } from '@aplt/db';
import { refreshProductSearchOf } from '../search/search-index.repository';
import type { Field } from './copy-writer';
import type { ProductRow } from './feed-rows';
import { country, gtin, nz, productSku, variantSku } from './import.repository';
import type { Parsed } from './mappers/parsed';
import type { RunReport } from './run-report';
import {
  applyStagedProducts,
  copyStatement,
  createProductStage,
  productStage,
} from './staged-import.repository';
import { applyInRanges, refusedRow, streamInChunks, type Trx } from './staged-pipeline';

/**
 * Products: the feed is parsed and spooled in chunks; each chunk is COPYed to the stage, written
 * set-based and its products' search documents computed, on the server, while the next chunk is
 * parsed (the documents are most of the server's work: to_tsvector over three long descriptions).
 * Returns when the feed was read (ms after the start) and the search indexing's share.
 */
export async function importProducts(
  trx: Trx,
  client: PgClient,
  supplier: string,
  rows: AsyncIterable<Parsed<ProductRow>>,
  report: RunReport,
  chunkRows: number,
): Promise<{ feedMs: number; search: { indexed: number; ms: number } }> {
  const search = { indexed: 0, ms: 0 };
  const start = performance.now();
  await createProductStage(trx);
  // Our SKU of every staged product -> its feed row: a second record for it is reported, the first counts.
  const seen = new Map<string, number>();
  const { readAt } = await streamInChunks(
    client,
    copyStatement(productStage),
    rows,
    report,
    (r, ord, rowNumber) => {
      const sku = productSku(supplier, r.masterCode);
      const first = seen.get(sku);
      if (first !== undefined)
        return {
          rowNumber,
          key: r.masterCode,
          reason: `duplicate: row ${first} of the feed already gives product ${sku}`,
          raw: r,
        };
      seen.set(sku, rowNumber);
      return productFields(ord, rowNumber, sku, r);
    },
    chunkRows,
    async (lo, hi) => {
      // The products this chunk inserted or updated, from the ranges the database took.
      const written: string[] = [];
      report.add(
        await applyInRanges(
          trx,
          lo,
          hi,
          async (a, b) => {
            const c = await applyStagedProducts(trx, supplier, a, b);
            written.push(...c.written);
            return c;
          },
          async (ord, reason) => report.reject(await refusedRow(trx, 'aplt_stage_products', ord, reason)),
        ),
      );
      const at = performance.now();
      search.indexed += await refreshProductSearchOf(trx, written);
      search.ms += performance.now() - at;
    },
  );
  seen.clear();
  return { feedMs: Math.round(readAt - start), search };
}

function productFields(ord: number, rowNumber: number, sku: string, r: ProductRow): Field[] {
  const variants = new Map<string, object>();
  for (const v of r.variants) {
    const vsku = variantSku(sku, v.colorCode);
    // One variant per colour: a repeated colour code would be the same variant SKU twice.
    if (!variants.has(vsku))
      variants.set(vsku, {
        sku: vsku,
        supplier_sku: v.supplierSku,
        supplier_variant_id: v.supplierVariantId,
        color_code: v.colorCode,
        color_name: v.colorName,
        color_group: v.colorGroup,
        pms_color: v.pmsColor,
        gtin: gtin(v.gtin) ?? undefined,
        plc_status: v.plcStatus,
      });
  }
  return [
    ord,
    rowNumber,
    sku,
    r.masterCode,
    r.names.nl,
    r.names.en,
    r.names.de,
    r.descriptions.nl,
    r.descriptions.en,
    r.descriptions.de,
    r.brand,
    r.material,
    r.dimensions,
    country(r.countryOfOrigin),
    r.categoryCode,
    r.printable,
    nz(r.numberOfPrintPositions),
    r.images[0],
    JSON.stringify(r.images),
    JSON.stringify([...variants.values()]),
  ];
}
