import { type Kysely, sql } from '@aplt/db';

// The markers table is in no generated type (no migration makes it): these are generic over the
// database and speak raw SQL.

/**
 * Which demo seed steps have run, per step and scope (a tenant id, or `*` for a fleet-wide step),
 * with the step's version: rows in the control database (`fleet_seed_markers`), so a restart on a
 * fleet that already has its data skips the seed, and a tenant registered later still gets its own.
 * The table belongs to the start command alone (no service reads it), so it is made here rather
 * than by the control database's migrations.
 */
export const FLEET_SCOPE = '*';

export interface SeedMarker {
  step: string;
  scope: string;
  version: number;
  doneAt: Date;
}

export async function ensureSeedMarkers<DB>(control: Kysely<DB>): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS fleet_seed_markers (
      step text NOT NULL,
      scope text NOT NULL,
      version integer NOT NULL,
      done_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (step, scope)
    )`.execute(control);
}

/** The markers of one step, by scope. */
export async function readSeedMarkers<DB>(
  control: Kysely<DB>,
  step: string,
): Promise<Map<string, SeedMarker>> {
  const rows = await sql<{ scope: string; version: number; done_at: Date }>`
    SELECT scope, version, done_at FROM fleet_seed_markers WHERE step = ${step}`.execute(control);
  return new Map(
    rows.rows.map((r) => [r.scope, { step, scope: r.scope, version: r.version, doneAt: r.done_at }]),
  );
}

/** Every marker, oldest first (tests, diagnostics). */
export async function listSeedMarkers<DB>(control: Kysely<DB>): Promise<SeedMarker[]> {
  const rows = await sql<{ step: string; scope: string; version: number; done_at: Date }>`
    SELECT step, scope, version, done_at FROM fleet_seed_markers ORDER BY step, scope`.execute(control);
  return rows.rows.map((r) => ({ step: r.step, scope: r.scope, version: r.version, doneAt: r.done_at }));
}

export async function writeSeedMarkers<DB>(
  control: Kysely<DB>,
  step: string,
  scopes: string[],
  version: number,
): Promise<void> {
  if (scopes.length === 0) return;
  await sql`INSERT INTO fleet_seed_markers (step, scope, version)
    SELECT ${step}, s, ${version} FROM unnest(${scopes}::text[]) AS s
    ON CONFLICT (step, scope) DO UPDATE SET version = EXCLUDED.version, done_at = now()`.execute(control);
}
