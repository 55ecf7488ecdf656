import { migrateFleet } from '../fleet-migrate';

migrateFleet().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
