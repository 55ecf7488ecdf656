import type { PgClient } from '@aplt/db';
import { CopyWriter, type Field } from './copy-writer';
import type { PriceRow } from './feed-rows';
import { nz } from './import.repository';
import { PriceAmounts } from './price-amounts';
import type { Parsed } from './mappers/parsed';
import type { RunReport } from './run-report';
import {
  applyStagedPrices,
  copyStatement,
  createPriceStage,
  priceStage,
  resolveStagedPrices,
  stagedPriceRecord,
  stagedPriceRejects,
} from './staged-import.repository';
import { applyInRanges, reportStagedRejects, stageRows, type Trx } from './staged-pipeline';

/**
 * Prices: every scale of the feed is COPYed to the stage (purchase and marked-up retail computed
 * here, as before), resolved set-based (unknown SKUs, invalid values and repeated records go to the
 * report), then written by one statement set; a range the database refuses is halved until the
 * refused records stand alone.
 */
export async function importPrices(
  trx: Trx,
  client: PgClient,
  supplier: string,
  rows: AsyncIterable<Parsed<PriceRow>>,
  report: RunReport,
  marginPercent: string,
): Promise<number> {
  const start = performance.now();
  const amounts = new PriceAmounts(marginPercent);
  await createPriceStage(trx);
  let records = 0;
  const copy = CopyWriter.open(client, copyStatement(priceStage));
  try {
    await stageRows(
      rows,
      report,
      (r, ord, rowNumber) => {
        const currency = r.currency.toUpperCase();
        const lines: Field[][] = r.scales.map((sc) => {
          const [purchase, retail] = amounts.of(sc.price);
          return [
            ord,
            rowNumber,
            r.supplierSku,
            sc.minQuantity,
            purchase,
            retail,
            currency,
            nz(r.validUntil),
          ];
        });
        return lines.length > 0
          ? lines.flat()
          : { rowNumber, key: r.supplierSku, reason: 'no price: the record lists no scale', raw: r };
      },
      async (fields) => {
        // One staged line per scale (8 fields each).
        for (let i = 0; i < fields.length; i += 8) await copy.row(fields.slice(i, i + 8));
        records++;
      },
    );
    await copy.end();
  } catch (err) {
    await copy.abort(err instanceof Error ? err : new Error(String(err)));
    throw err;
  }
  const stageMs = Math.round(performance.now() - start);
  await resolveStagedPrices(trx, supplier);
  await reportStagedRejects(report, (after, limit) => stagedPriceRejects(trx, after, limit));
  report.add(
    await applyInRanges(
      trx,
      0,
      records,
      (lo, hi) => applyStagedPrices(trx, lo, hi),
      async (ord, reason) => {
        const staged = await stagedPriceRecord(trx, ord);
        report.reject({
          rowNumber: staged?.row_number ?? 0,
          key: staged?.key,
          reason: `refused by the database: ${reason}`,
          raw: staged?.raw ?? null,
        });
      },
    ),
  );
  return stageMs;
}
