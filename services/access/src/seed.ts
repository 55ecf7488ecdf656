import { isUniqueViolation } from '@aplt/db';
import { featureCatalog } from '@aplt/licensing';
import type { AccessDb } from './db';
import { ACCESS_ADMIN_ROLE } from './auth/auth.routes';
import { createUser } from './auth/login.service';
import { findUserByEmail } from './auth/user.repository';
import { LICENSE_ADMIN_ROLE, seedTenantLicenses } from './licensing/license.service';

/** Spec 2's seeded state: 31 features, the 8 add-ons disabled (23 enabled). */
export const defaultDisabledFeatures = featureCatalog.filter((f) => f.group === 'addons').map((f) => f.key);

/**
 * Demo data of the access service, idempotent: an access/license admin, a demo whitelist range
 * and licenses for every given tenant (existing rows are never overwritten).
 */
export async function seedAccessDemo(
  db: AccessDb,
  opts: { tenantIds: string[]; admin: { email: string; password: string } },
) {
  let adminCreated = false;
  if (!(await findUserByEmail(db, opts.admin.email))) {
    try {
      await createUser({ db }, { ...opts.admin, roles: [ACCESS_ADMIN_ROLE, LICENSE_ADMIN_ROLE] });
      adminCreated = true;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
  await db
    .insertInto('access_ip_whitelist')
    .values({ cidr: '192.0.2.0/24', note: 'demo office network (TEST-NET-1)' })
    .onConflict((oc) => oc.column('cidr').doNothing())
    .execute();
  const licensed = await seedTenantLicenses(db, opts.tenantIds, defaultDisabledFeatures);
  return { adminCreated, licensed };
}

export { seedTenantLicenses, createUser };
