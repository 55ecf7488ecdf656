import { type PgClient, sql } from '@aplt/db';
import { arrayLiteral, type Field } from './copy-writer';
import type { PositionRow, PrintRow } from './feed-rows';
import type { Parsed } from './mappers/parsed';
import type { RunReport } from './run-report';
import {
  applyStagedPositions,
  applyStagedTechniques,
  copyStatement,
  createPrintStage,
  printStage,
  resolveStagedPositions,
  stagedPosition,
  stagedPositionRejects,
} from './staged-import.repository';
import { applyInRanges, reportStagedRejects, stream, type Trx } from './staged-pipeline';

/**
 * Print data: every technique and position record is COPYed to the stage (see printStage), then written
 * set-based: techniques (with their scales and setup cost) in one statement per table, positions
 * resolved at once (unknown products, invalid sizes and unknown techniques to the report) and
 * written with their technique links; a range of positions the database refuses is halved until
 * the refused position stands alone.
 */
export async function importPrint(
  trx: Trx,
  client: PgClient,
  supplier: string,
  rows: AsyncIterable<Parsed<PrintRow>>,
  report: RunReport,
): Promise<number> {
  const start = performance.now();
  await createPrintStage(trx);
  await stream(client, copyStatement(printStage), rows, report, (r, ord, rowNumber) =>
    r.type === 'technique'
      ? [ord, rowNumber, 't', r.row.code, ...noPosition, JSON.stringify(r.row)]
      : [ord, rowNumber, 'p', r.row.masterCode, ...positionFields(r.row), null],
  );
  const stageMs = Math.round(performance.now() - start);
  // Techniques first: positions refer to them. A refused technique fails the run (they are few
  // and every position depends on them).
  report.add(await applyStagedTechniques(trx, supplier));
  await resolveStagedPositions(trx, supplier);
  await reportStagedRejects(report, (after, limit) => stagedPositionRejects(trx, after, limit));
  const positions = await sql<{ n: number }>`SELECT count(*)::int AS n FROM aplt_stage_positions`.execute(
    trx,
  );
  report.add(
    await applyInRanges(
      trx,
      0,
      positions.rows[0]?.n ?? 0,
      (lo, hi) => applyStagedPositions(trx, lo, hi),
      async (gid, reason) => {
        const staged = await stagedPosition(trx, gid);
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

/** A technique record's empty position columns. */
const noPosition: Field[] = Array.from({ length: 11 }, () => null);

/** A position record's typed stage columns, code to t_h (printStage). */
function positionFields(p: PositionRow): Field[] {
  const t = p.techniques;
  return [
    p.positionCode,
    p.positionName,
    p.widthMm,
    p.heightMm,
    p.rotation,
    p.points === undefined || p.points === null ? null : JSON.stringify(p.points),
    arrayLiteral(t.map((x) => x.code)),
    arrayLiteral(t.map((x) => x.isDefault)),
    arrayLiteral(t.map((x) => x.maxColours)),
    arrayLiteral(t.map((x) => x.widthMm)),
    arrayLiteral(t.map((x) => x.heightMm)),
  ];
}
