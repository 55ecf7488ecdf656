// Document number allocation per second at 1, 8 and 32 concurrent clients: BEGIN; upsert
// aplt_number_sequences ... RETURNING; COMMIT (what every document insert does), beside the
// floor measured in the same run: BEGIN; UPDATE one_row SET v = v + 1 RETURNING v; COMMIT on a
// bare one-row table. Target: at least 70% of the floor at 8 clients.
import { type ApltDatabase, createPgDb, type Kysely, sql } from '@aplt/db';
import { benchApltDb } from './documents-db';
import { allocateNumber } from '@aplt/service-documents/numbering';

const SECONDS = Number(process.env.SECONDS ?? 3);

async function measure(
  pool: Kysely<ApltDatabase>,
  clients: number,
  op: (trx: Kysely<ApltDatabase>) => Promise<unknown>,
) {
  let done = 0;
  const until = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until) {
        await pool.transaction().execute(op);
        done++;
      }
    }),
  );
  return done / SECONDS;
}

const tdb = await benchApltDb('numbers');
try {
  await sql`CREATE TABLE bench_one_row (id int PRIMARY KEY, v bigint NOT NULL)`.execute(tdb.db);
  await sql`INSERT INTO bench_one_row VALUES (1, 0)`.execute(tdb.db);
  console.log('clients  allocate/s  bare UPDATE/s  ratio');
  for (const clients of [1, 8, 32]) {
    const pool = createPgDb<ApltDatabase>(tdb.address, { max: clients, applicationName: 'bench-numbers' });
    try {
      await measure(pool, clients, (trx) => allocateNumber(trx, 'Q', 2030)); // warm-up
      const base = await measure(pool, clients, (trx) =>
        sql`UPDATE bench_one_row SET v = v + 1 WHERE id = 1 RETURNING v`.execute(trx),
      );
      const alloc = await measure(pool, clients, (trx) => allocateNumber(trx, 'F', 2030));
      console.log(
        `${String(clients).padStart(7)}  ${alloc.toFixed(0).padStart(10)}  ${base.toFixed(0).padStart(13)}  ${((alloc / base) * 100).toFixed(0).padStart(4)}%`,
      );
    } finally {
      await pool.destroy();
    }
  }
} finally {
  await tdb.drop();
}
