// Shared by the documents benchmarks (not a benchmark itself): a private, migrated aplt database.
import {
  type ApltDatabase,
  createPgDb,
  dropPgDatabase,
  ensurePgDatabase,
  migrateToLatest,
  type PgAddress,
} from '@aplt/db';

export async function benchApltDb(tag: string) {
  const server = {
    host: process.env.PG_HOST ?? '127.0.0.1',
    port: Number(process.env.PG_PORT ?? 5432),
    user: process.env.PG_USER ?? 'postgres',
    password: process.env.PG_PASS,
  };
  const name = `bench_${tag}_${process.pid}`;
  await ensurePgDatabase(server, name);
  const address: PgAddress = { ...server, database: name };
  const db = createPgDb<ApltDatabase>(address, { max: 2 });
  await migrateToLatest(db, 'aplt');
  return {
    address,
    db,
    async drop() {
      await db.destroy();
      await dropPgDatabase(server, name);
    },
  };
}
