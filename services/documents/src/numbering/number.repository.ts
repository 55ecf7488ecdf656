import { randomInt } from 'node:crypto';
import { type ApltDatabase, type Kysely, sql } from '@aplt/db';

export type NumberPrefix = 'Q' | 'O' | 'F' | 'C' | 'P' | 'B';

/**
 * Allocates the next number of (prefix, year) INSIDE the caller's transaction. The upsert takes
 * a row lock on the counter row that is held until that transaction ends: concurrent allocators
 * queue behind it (no duplicates), and a rollback undoes the increment (no burned numbers, so
 * invoices stay gapless). A new year inserts its row and starts at 1.
 */
export async function allocateNumber(
  trx: Kysely<ApltDatabase>,
  prefix: NumberPrefix,
  year: number,
): Promise<string> {
  const row = await sql<{ last_value: number }>`
    INSERT INTO aplt_number_sequences (prefix, year, last_value) VALUES (${prefix}, ${year}, 1)
    ON CONFLICT (prefix, year) DO UPDATE SET last_value = aplt_number_sequences.last_value + 1
    RETURNING last_value`.execute(trx);
  return formatNumber(prefix, year, row.rows[0]!.last_value);
}

/**
 * <prefix>-<YYYY>-<NNNN>: at least 4 digits, zero-padded. Beyond 9999 the number simply gets more
 * digits (Q-2026-10000); the table CHECKs accept 4 or more digits. Sort documents by id or by
 * (year, sequence), never by the number as text, once a year passes 9999.
 */
export function formatNumber(prefix: NumberPrefix, year: number, seq: number): string {
  return `${prefix}-${year}-${String(seq).padStart(4, '0')}`;
}

/**
 * A placeholder that satisfies the number CHECK and UNIQUE constraints (year 0000 never occurs),
 * used for the insert when the real number is allocated at the end of the transaction so the
 * counter row is locked as briefly as possible. It is replaced before commit, so no other
 * transaction ever sees it.
 */
export function provisionalNumber(prefix: NumberPrefix): string {
  return `${prefix}-0000-${randomInt(1e9, 1e12 - 1)}${randomInt(1e5, 1e6 - 1)}`;
}
