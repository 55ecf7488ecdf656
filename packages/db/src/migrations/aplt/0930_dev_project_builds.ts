import { type Kysely, sql } from 'kysely';

/**
 * Dev-project rebuilds that really build (issue #16). A deployment log row records the build it
 * ran: the exit status (`exit_code`, or `signal` when it was killed, `timed_out` when the time
 * limit killed it), how long it took (`duration_ms`), the directory of the built output it kept
 * (`output_dir`, relative to the project) and whether that output became the live preview
 * (`preview`). `log` is written while the build runs (bounded by the service).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aplt_deployment_logs
      ADD COLUMN exit_code integer,
      ADD COLUMN signal text,
      ADD COLUMN timed_out boolean NOT NULL DEFAULT false,
      ADD COLUMN duration_ms integer,
      ADD COLUMN output_dir text,
      ADD COLUMN preview boolean NOT NULL DEFAULT false;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aplt_deployment_logs
      DROP COLUMN exit_code,
      DROP COLUMN signal,
      DROP COLUMN timed_out,
      DROP COLUMN duration_ms,
      DROP COLUMN output_dir,
      DROP COLUMN preview;
  `.execute(db);
}
