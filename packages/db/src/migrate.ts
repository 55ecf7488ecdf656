import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import { migrations as access } from './migrations/access';
import { migrations as aplt } from './migrations/aplt';
import { migrations as commerce } from './migrations/commerce';
import { migrations as control } from './migrations/control';
import { migrations as portal } from './migrations/portal';

/** One migration folder per kind of database; the names are the keys of this table. */
const byKind = { control, access, commerce, aplt, portal } satisfies Record<
  string,
  Record<string, Migration>
>;

export type DatabaseKind = keyof typeof byKind;
export const databaseKinds = Object.keys(byKind) as DatabaseKind[];

export function migrationsOf(kind: DatabaseKind): Record<string, Migration> {
  return byKind[kind];
}

/** Changes whenever a migration file of the kind changes: test templates are keyed by it. */
export function migrationFingerprint(kind: DatabaseKind): string {
  const dir = new URL(`./migrations/${kind}/`, import.meta.url);
  const hash = createHash('sha1');
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(new URL(file, dir)));
  return hash.digest('hex').slice(0, 10);
}

class StaticProvider implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  async getMigrations() {
    return this.migrations;
  }
}

/** Applies every pending migration of `kind`; a second run is a no-op. Throws on the first failure. */
export async function migrateToLatest<DB>(db: Kysely<DB>, kind: DatabaseKind): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: new StaticProvider(byKind[kind]),
    migrationTableName: 'kysely_migration',
    migrationLockTableName: 'kysely_migration_lock',
    // Features add migrations in parallel branches; each name is applied once, whatever its order.
    allowUnorderedMigrations: true,
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(
      `Migration ${kind}/${failed} failed: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
      },
    );
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
