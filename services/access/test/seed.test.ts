import type { AccessDatabase } from '@aplt/db';
import { createTestPgDatabase, type TestPgDatabase } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDisabledFeatures, seedAccessDemo } from '../src/seed';

describe('access demo seed', () => {
  let db: TestPgDatabase<AccessDatabase>;
  beforeAll(async () => {
    db = await createTestPgDatabase('access', 'seed');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('licenses every given tenant from the catalog (23 of 31 enabled) and is idempotent', async () => {
    const admin = { email: 'access-admin@example.com', password: 'Demo-Access-2026!' };
    const tenantIds = ['master', 'pim', 'acme', 'globex'];
    expect(await seedAccessDemo(db.db, { tenantIds, admin })).toEqual({ adminCreated: true, licensed: 4 });
    await db.db
      .updateTable('tenant_licenses')
      .set({ enabled: true })
      .where('tenant_id', '=', 'acme')
      .where('feature', '=', 'crm')
      .execute();
    expect(await seedAccessDemo(db.db, { tenantIds, admin })).toEqual({ adminCreated: false, licensed: 0 });
    const counts = await db.db
      .selectFrom('tenant_licenses')
      .select([
        'tenant_id',
        (eb) => eb.fn.countAll<string>().as('total'),
        (eb) => eb.fn.sum<string>(eb.cast('enabled', 'integer')).as('enabled'),
      ])
      .groupBy('tenant_id')
      .orderBy('tenant_id')
      .execute();
    expect(counts.map((c) => [c.tenant_id, Number(c.total), Number(c.enabled)])).toEqual([
      ['acme', 31, 24],
      ['globex', 31, 23],
      ['master', 31, 23],
      ['pim', 31, 23],
    ]);
    expect(defaultDisabledFeatures).toHaveLength(8);
    const user = await db.db.selectFrom('access_users').select(['roles']).executeTakeFirstOrThrow();
    expect(user.roles).toEqual(['access-admin', 'license-admin']);
  });
});
