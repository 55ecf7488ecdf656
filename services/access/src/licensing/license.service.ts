import { createHash } from 'node:crypto';
import type { TenantRegistry } from '@aplt/db';
import { badRequest, conflict, forbidden, notFound } from '@aplt/http';
import { featureCatalog, type FeatureKey, featureGroups, featureKeys, isFeatureKey } from '@aplt/licensing';
import type { AccessDb } from '../db';
import type { Identity } from '../auth/session.repository';
import type { LicensePublisher } from './license-events';
import * as repo from './license.repository';

import { LICENSE_ADMIN_ROLE } from '../auth/roles';

export { LICENSE_ADMIN_ROLE };

const groupOf = new Map<string, string>(featureCatalog.map((f) => [f.key, f.group]));

export interface LicenseDeps {
  db: AccessDb;
  registry: TenantRegistry;
  publisher: LicensePublisher;
  log: { warn(obj: object, msg: string): void };
}

const effective = (r: repo.LicenseRow, now: Date) =>
  r.enabled && (r.expires_at === null || r.expires_at > now);

/** The GET /api/license/{tenant_id} body with exactly the spec's fields, plus revision and ETag. */
export async function getLicense(deps: LicenseDeps, tenantId: string) {
  const [rows, revision] = await Promise.all([
    repo.tenantRows(deps.db, tenantId),
    repo.revisionOf(deps.db, tenantId),
  ]);
  if (rows.length === 0) {
    const known = await deps.registry.get(tenantId);
    throw notFound(known ? `Tenant ${tenantId} has no licenses yet` : `Unknown tenant ${tenantId}`, {
      tenant_id: tenantId,
    });
  }
  const now = new Date();
  const all = Object.fromEntries(rows.map((r) => [r.feature, effective(r, now)])) as Record<string, boolean>;
  const features = featureKeys.filter((k) => all[k] === true);
  const groups: Record<string, { enabled: string[]; disabled: string[] }> = {};
  for (const g of featureGroups) groups[g] = { enabled: [], disabled: [] };
  for (const r of rows) {
    const g = (groups[r.feature_group ?? groupOf.get(r.feature) ?? 'other'] ??= {
      enabled: [],
      disabled: [],
    });
    (all[r.feature] ? g.enabled : g.disabled).push(r.feature);
  }
  const trials = Object.fromEntries(
    rows.filter((r) => r.expires_at !== null).map((r) => [r.feature, r.expires_at!.toISOString()]),
  );
  // The content hash makes a trial that just expired change the ETag although no write happened.
  const etag = `"r${revision}-${createHash('sha1').update(features.join(',')).digest('hex').slice(0, 10)}"`;
  return {
    body: {
      tenant_id: tenantId,
      features,
      all_features: all,
      groups,
      feature_count: features.length,
      total_count: rows.length,
    },
    revision,
    etag,
    trials,
  };
}

export async function listTenants(deps: LicenseDeps) {
  const [counts, registered] = await Promise.all([repo.tenantCounts(deps.db), deps.registry.list()]);
  const byId = new Map(counts.map((c) => [c.tenant_id as string, c]));
  const ids = [...new Set([...registered.map((t) => t.id), ...byId.keys()])].sort();
  return ids.map((id) => {
    const c = byId.get(id);
    return {
      tenant_id: id,
      name: registered.find((t) => t.id === id)?.name ?? null,
      feature_count: c?.feature_count ?? 0,
      total_count: c?.total_count ?? 0,
      revision: c?.revision ?? '0',
    };
  });
}

export function assertLicenseAdmin(identity: Identity): void {
  if (!identity.roles.includes(LICENSE_ADMIN_ROLE))
    throw forbidden('Only license administrators may change licenses', { required_role: LICENSE_ADMIN_ROLE });
}

function assertFeature(feature: string): asserts feature is FeatureKey {
  if (!isFeatureKey(feature)) throw badRequest(`Unknown feature ${feature}`, { feature, known: featureKeys });
}

interface Change {
  feature: FeatureKey;
  enabled: boolean;
  expiresAt?: Date | null;
}

/**
 * Applies changes, audit rows and the revision bump in one transaction, then announces the new
 * revision. A tenant without rows must be cloned first (spec 2: new tenants are licensed by cloning).
 */
async function applyChanges(
  deps: LicenseDeps,
  tenantId: string,
  changes: Change[],
  actor: Identity,
  reason: string | null,
): Promise<string> {
  const revision = await deps.db.transaction().execute(async (trx) => {
    const current = await repo.lockTenantRows(trx, tenantId);
    if (current.length === 0) {
      const known = await deps.registry.get(tenantId);
      if (!known) throw notFound(`Unknown tenant ${tenantId}`, { tenant_id: tenantId });
      if (changes.length < featureKeys.length)
        throw conflict(`Tenant ${tenantId} has no licenses yet; clone another tenant first`, {
          tenant_id: tenantId,
        });
    }
    const old = new Map(current.map((r) => [r.feature, r.enabled]));
    for (const c of changes) {
      await repo.upsertFeature(trx, {
        tenantId,
        feature: c.feature,
        enabled: c.enabled,
        group: groupOf.get(c.feature)!,
      });
      if (c.expiresAt !== undefined)
        await repo.setExpiry(trx, tenantId, c.feature, c.enabled ? c.expiresAt : null);
      else if (!c.enabled) await repo.setExpiry(trx, tenantId, c.feature, null);
    }
    await repo.insertAudit(
      trx,
      changes.map((c) => ({
        tenant_id: tenantId,
        feature: c.feature,
        old_enabled: old.get(c.feature) ?? null,
        new_enabled: c.enabled,
        actor_email: actor.email,
        reason,
      })),
    );
    return repo.bumpRevision(trx, tenantId);
  });
  try {
    await deps.publisher.published(tenantId, revision);
  } catch (err) {
    // Clients still converge at their next poll; the write itself is committed.
    deps.log.warn({ tenantId, err: String(err) }, 'license change notification failed');
  }
  return revision;
}

export async function setFeature(
  deps: LicenseDeps,
  tenantId: string,
  input: {
    feature: string;
    enabled: boolean;
    reason?: string | undefined;
    expires_at?: string | null | undefined;
  },
  actor: Identity,
) {
  assertLicenseAdmin(actor);
  assertFeature(input.feature);
  const expiresAt =
    input.expires_at === undefined
      ? undefined
      : input.expires_at === null
        ? null
        : new Date(input.expires_at);
  if (expiresAt && expiresAt <= new Date()) throw badRequest('expires_at must be in the future');
  const revision = await applyChanges(
    deps,
    tenantId,
    [{ feature: input.feature, enabled: input.enabled, expiresAt }],
    actor,
    input.reason ?? null,
  );
  return {
    tenant_id: tenantId,
    feature: input.feature,
    enabled: input.enabled,
    expires_at: expiresAt?.toISOString() ?? null,
    revision,
  };
}

export async function setBulk(
  deps: LicenseDeps,
  tenantId: string,
  input: { features: string[]; enabled: boolean; reason?: string | undefined },
  actor: Identity,
) {
  assertLicenseAdmin(actor);
  input.features.forEach(assertFeature);
  const unique = [...new Set(input.features)] as FeatureKey[];
  const revision = await applyChanges(
    deps,
    tenantId,
    unique.map((feature) => ({ feature, enabled: input.enabled })),
    actor,
    input.reason ?? null,
  );
  return { tenant_id: tenantId, features: unique, enabled: input.enabled, revision };
}

export async function cloneLicenses(
  deps: LicenseDeps,
  tenantId: string,
  input: { source_tenant_id: string; reason?: string | undefined },
  actor: Identity,
) {
  assertLicenseAdmin(actor);
  if (input.source_tenant_id === tenantId) throw badRequest('A tenant cannot be cloned onto itself');
  const source = await repo.tenantRows(deps.db, input.source_tenant_id);
  if (source.length === 0)
    throw notFound(`Source tenant ${input.source_tenant_id} has no licenses`, {
      tenant_id: input.source_tenant_id,
    });
  if (!(await deps.registry.get(tenantId)) && (await repo.tenantRows(deps.db, tenantId)).length === 0)
    throw notFound(`Unknown tenant ${tenantId}`, { tenant_id: tenantId });
  const changes = source
    .filter((r) => isFeatureKey(r.feature))
    .map((r) => ({
      feature: r.feature as FeatureKey,
      enabled: r.enabled,
      expiresAt: r.enabled ? r.expires_at : null,
    }));
  const revision = await applyChanges(
    deps,
    tenantId,
    changes,
    actor,
    input.reason ?? `cloned from ${input.source_tenant_id}`,
  );
  return {
    tenant_id: tenantId,
    source_tenant_id: input.source_tenant_id,
    feature_count: changes.filter((c) => c.enabled).length,
    total_count: changes.length,
    revision,
  };
}

export async function auditLog(deps: LicenseDeps, tenantId: string, actor: Identity, limit = 100) {
  if (!actor.roles.includes(LICENSE_ADMIN_ROLE) && actor.tenantId !== tenantId)
    throw forbidden('Only license administrators and the tenant’s own admins may read this audit log');
  const rows = await repo.auditEntries(deps.db, tenantId, limit);
  return rows.map((r) => ({ ...r, created_at: (r.created_at as Date).toISOString() }));
}

/** Every registered tenant gets the catalog: all enabled except the listed ones. Idempotent. */
export async function seedTenantLicenses(
  db: AccessDb,
  tenantIds: string[],
  disabled: readonly string[] = [],
) {
  let seeded = 0;
  for (const tenantId of tenantIds) {
    const inserted = await repo.insertMissingLicenses(
      db,
      featureCatalog.map((f) => ({
        tenant_id: tenantId,
        feature: f.key,
        enabled: !disabled.includes(f.key),
        feature_group: f.group,
      })),
    );
    if (inserted > 0) {
      seeded++;
      await repo.bumpRevision(db, tenantId);
    }
  }
  return seeded;
}
