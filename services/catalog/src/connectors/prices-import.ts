import type { PgClient } from '@aplt/db';
import { CopyWriter } from './copy-writer';
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
 * Prices: every record of the feed is COPYed to the stage with its scales (purchase and marked-up
 * retail computed here, as before), resolved set-based (unknown SKUs, invalid values and repeated
 * records go to the report), then written by one statement set; a range the database refuses is
 * halved until the refused records stand alone.
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
        if (r.scales.length === 0)
          return { rowNumber, key: r.supplierSku, reason: 'no price: the record lists no scale', raw: r };
        const quantities: number[] = [];
        const purchase: string[] = [];
        const retail: string[] = [];
        for (const sc of r.scales) {
          const [p, m] = amounts.of(sc.price);
          quantities.push(sc.minQuantity);
          purchase.push(p);
          retail.push(m);
        }
        return [
          ord,
          rowNumber,
          r.supplierSku,
          `{${quantities.join(',')}}`,
          `{${purchase.join(',')}}`,
          `{${retail.join(',')}}`,
          r.currency.toUpperCase(),
          nz(r.validUntil),
        ];
      },
      async (fields) => {
        await copy.row(fields);
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
      (lo, hi) => applyStagedPrices(trx, client, lo, hi),
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
