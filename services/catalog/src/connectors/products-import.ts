import { createHash } from 'node:crypto';
import type { PgClient } from '@aplt/db';
import { copyLine, type Field } from './copy-writer';
import type { ProductRow } from './feed-rows';
import { country, gtin, nz, productSku, variantSku } from './import.repository';
import type { Parsed } from './mappers/parsed';
import type { RunReport } from './run-report';
import {
  applyStagedProducts,
  copyStatement,
  createProductStage,
  feedFingerprints,
  mapConnectorCategories,
  productStage,
} from './staged-import.repository';
import { applyInRanges, refusedRow, streamInChunks, type Trx } from './staged-pipeline';

/**
 * The fingerprint of a record as staged (its fields after ord and row number): the first 128 bits
 * of a SHA-256, as a uuid. The version changes when what a record is compared on changes, so that
 * every product is compared again once.
 */
const FINGERPRINT_VERSION = '1';
function fingerprint(fields: Field[]): string {
  const hex = createHash('sha256')
    .update(FINGERPRINT_VERSION)
    .update(copyLine(fields.slice(2)))
    .digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Products: a record whose fingerprint is the one its product carries (it wrote the product and
 * its variants as they are, and nobody changed them since: migration 0518) is counted unchanged
 * and never staged. The rest of the feed is parsed and spooled in chunks; each chunk is COPYed to the stage and
 * written set-based on the server while the next chunk is parsed. The search documents are not
 * computed here: the run's one refresh after the feed indexes every product it wrote in a single
 * statement, whose to_tsvector work Postgres spreads over parallel workers (a refresh per chunk
 * took a third longer: one backend, per-chunk lookups and more GIN flushes).
 * Returns when the feed was read (ms after the start).
 */
export async function importProducts(
  trx: Trx,
  client: PgClient,
  supplier: string,
  rows: AsyncIterable<Parsed<ProductRow>>,
  report: RunReport,
  chunkRows: number,
): Promise<{ feedMs: number }> {
  const start = performance.now();
  await createProductStage(trx);
  const known = await feedFingerprints(trx, supplier);
  // Our SKU of every product of the feed -> its feed row: a second record for it is reported, the first counts.
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
      const fields = productFields(ord, rowNumber, sku, r);
      const fp = fingerprint(fields);
      if (known.get(sku) === fp) return 'unchanged';
      fields.push(fp);
      return fields;
    },
    chunkRows,
    async (lo, hi) => {
      report.add(
        await applyInRanges(
          trx,
          lo,
          hi,
          (a, b) => applyStagedProducts(trx, supplier, a, b),
          async (ord, reason) => report.reject(await refusedRow(trx, 'aplt_stage_products', ord, reason)),
        ),
      );
    },
  );
  known.clear();
  await mapConnectorCategories(trx, [...seen.keys()]);
  seen.clear();
  return { feedMs: Math.round(readAt - start) };
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
