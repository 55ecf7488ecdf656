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
  const staged = await stream(client, copyStatement(stockStage), rows, report, (r, ord, rowNumber) => [
    ord,
    rowNumber,
    r.supplierSku,
    r.quantity,
    r.firstArrivalDate,
    r.firstArrivalQty,
    r.nextArrivalDate,
    r.nextArrivalQty,
  ]);
  const stageMs = Math.round(performance.now() - start);
  await resolveStagedStock(trx, supplier);
  // Unknown SKUs and duplicates, found set-based, into the report a page at a time.
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
