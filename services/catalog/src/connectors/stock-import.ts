import type { PgClient } from '@aplt/db';
import type { StockRow } from './feed-rows';
import type { Parsed } from './mappers/parsed';
import type { RunReport } from './run-report';
import {
  applyStagedStock,
  copyStatement,
  createStockStage,
  resolveStagedStock,
  stagedStockRejects,
  stockStage,
} from './staged-import.repository';
import { applyInRanges, refusedRow, reportStagedRejects, stream, type Trx } from './staged-pipeline';

export async function importStock(
  trx: Trx,
  client: PgClient,
  supplier: string,
  rows: AsyncIterable<Parsed<StockRow>>,
  report: RunReport,
): Promise<number> {
  const start = performance.now();
  await createStockStage(trx);
  // The supplier's SKU -> the feed row that gave its stock. A supplier SKU resolves to one SKU of
  // ours and no two to the same one, so a repeated supplier SKU is exactly a repeated SKU: it is
  // reported here, and the resolution needs no window over the whole feed to find it.
  const seen = new Map<string, number>();
  const staged = await stream(client, copyStatement(stockStage), rows, report, (r, ord, rowNumber) => {
    const first = seen.get(r.supplierSku);
    if (first !== undefined)
      return {
        rowNumber,
        key: r.supplierSku,
        reason: `duplicate: row ${first} of the feed already gives stock for ${r.supplierSku}`,
        raw: r,
      };
    seen.set(r.supplierSku, rowNumber);
    return [
      ord,
      rowNumber,
      r.supplierSku,
      r.quantity,
      r.firstArrivalDate,
      r.firstArrivalQty,
      r.nextArrivalDate,
      r.nextArrivalQty,
    ];
  });
  seen.clear();
  const stageMs = Math.round(performance.now() - start);
  await resolveStagedStock(trx, supplier);
  // Unknown SKUs, found set-based, into the report a page at a time.
  await reportStagedRejects(report, (after, limit) => stagedStockRejects(trx, after, limit));
  const counts = await applyInRanges(
    trx,
    0,
    staged,
    (lo, hi) => applyStagedStock(trx, lo, hi),
    async (ord, reason) => report.reject(await refusedRow(trx, 'aplt_stage_stock', ord, reason)),
  );
  report.add(counts);
  return stageMs;
}
