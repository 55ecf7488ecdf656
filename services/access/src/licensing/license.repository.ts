import { sql } from '@aplt/db';
import type { Executor } from '../db';

export interface LicenseRow {
  feature: string;
  enabled: boolean;
  feature_group: string | null;
  expires_at: Date | null;
}

/** Rows with the trial expiry joined; "effective" is decided by the service. */
export const tenantRows = (db: Executor, tenantId: string) =>
  db
    .selectFrom('tenant_licenses as l')
    .leftJoin('tenant_license_expiry as e', (j) =>
      j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.feature', '=', 'l.feature'),
    )
    .select(['l.feature', 'l.enabled', 'l.feature_group', 'e.expires_at'])
    .where('l.tenant_id', '=', tenantId)
    .orderBy('l.id')
    .execute() as Promise<LicenseRow[]>;

export const tenantCounts = (db: Executor) =>
  db
    .selectFrom('tenant_licenses as l')
    .leftJoin('tenant_license_expiry as e', (j) =>
      j.onRef('e.tenant_id', '=', 'l.tenant_id').onRef('e.feature', '=', 'l.feature'),
    )
    .leftJoin('tenant_license_revisions as r', 'r.tenant_id', 'l.tenant_id')
    .select([
      'l.tenant_id',
      sql<number>`count(*)::int`.as('total_count'),
      sql<number>`(count(*) FILTER (WHERE l.enabled AND (e.expires_at IS NULL OR e.expires_at > now())))::int`.as(
        'feature_count',
      ),
      sql<string>`coalesce(max(r.revision), 0)::text`.as('revision'),
    ])
    .groupBy('l.tenant_id')
    .orderBy('l.tenant_id')
    .execute();

export async function revisionOf(db: Executor, tenantId: string): Promise<string> {
  const row = await db
    .selectFrom('tenant_license_revisions')
    .select(sql<string>`revision::text`.as('revision'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return row?.revision ?? '0';
}

export async function bumpRevision(db: Executor, tenantId: string): Promise<string> {
  const row = await sql<{ revision: string }>`
    INSERT INTO tenant_license_revisions AS r (tenant_id, revision) VALUES (${tenantId}, 1)
    ON CONFLICT (tenant_id) DO UPDATE SET revision = r.revision + 1, updated_at = now()
    RETURNING revision::text AS revision
  `.execute(db);
  return row.rows[0]!.revision;
}

/** Locks the tenant's rows for the rest of the transaction, so concurrent writes audit true old values. */
export const lockTenantRows = (db: Executor, tenantId: string) =>
  db
    .selectFrom('tenant_licenses')
    .select(['feature', 'enabled', 'feature_group'])
    .where('tenant_id', '=', tenantId)
    .forUpdate()
    .execute() as Promise<Array<{ feature: string; enabled: boolean; feature_group: string | null }>>;

export async function upsertFeature(
  db: Executor,
  row: { tenantId: string; feature: string; enabled: boolean; group: string },
): Promise<void> {
  await db
    .insertInto('tenant_licenses')
    .values({ tenant_id: row.tenantId, feature: row.feature, enabled: row.enabled, feature_group: row.group })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'feature']).doUpdateSet({
        enabled: row.enabled,
        feature_group: row.group,
        updated_at: sql`now()`,
      }),
    )
    .execute();
}

export async function setExpiry(db: Executor, tenantId: string, feature: string, expiresAt: Date | null) {
  if (expiresAt === null) {
    await db
      .deleteFrom('tenant_license_expiry')
      .where('tenant_id', '=', tenantId)
      .where('feature', '=', feature)
      .execute();
    return;
  }
  await db
    .insertInto('tenant_license_expiry')
    .values({ tenant_id: tenantId, feature, expires_at: expiresAt })
    .onConflict((oc) => oc.columns(['tenant_id', 'feature']).doUpdateSet({ expires_at: expiresAt }))
    .execute();
}

export async function insertAudit(
  db: Executor,
  rows: Array<{
    tenant_id: string;
    feature: string;
    old_enabled: boolean | null;
    new_enabled: boolean;
    actor_email: string | null;
    reason: string | null;
  }>,
): Promise<void> {
  if (rows.length) await db.insertInto('tenant_license_audit').values(rows).execute();
}

export const auditEntries = (db: Executor, tenantId: string | null, limit: number) => {
  let q = db
    .selectFrom('tenant_license_audit')
    .select([
      'id',
      'tenant_id',
      'feature',
      'old_enabled',
      'new_enabled',
      'actor_email',
      'reason',
      'created_at',
    ])
    .orderBy('id', 'desc')
    .limit(limit);
  if (tenantId !== null) q = q.where('tenant_id', '=', tenantId);
  return q.execute();
};

/** Inserts the licenses a tenant does not have yet (an existing one keeps its state); how many were new. */
export async function insertMissingLicenses(
  db: Executor,
  rows: Array<{ tenant_id: string; feature: string; enabled: boolean; feature_group: string }>,
): Promise<number> {
  const res = await db
    .insertInto('tenant_licenses')
    .values(rows)
    .onConflict((oc) => oc.columns(['tenant_id', 'feature']).doNothing())
    .returning('id')
    .execute();
  return res.length;
}
