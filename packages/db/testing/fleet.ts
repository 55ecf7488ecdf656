import {
  type ApltDatabase,
  type CommerceDatabase,
  type ControlDatabase,
  type TenantKind,
  TenantDatabases,
  TenantRegistry,
} from '../src';
import { createTestPgDatabase, type TestPgDatabase } from './databases';
import { testServers } from './servers';

export interface TestTenantSpec {
  id: string;
  kind?: TenantKind;
  hosts?: string[];
}

export interface TestTenantDatabases {
  commerce: TestPgDatabase<CommerceDatabase>;
  aplt: TestPgDatabase<ApltDatabase>;
}

export interface TestFleet {
  control: TestPgDatabase<ControlDatabase>;
  registry: TenantRegistry;
  databases: TenantDatabases;
  /** Per tenant id, its two test databases. */
  tenantDbs: Map<string, TestTenantDatabases>;
  /** Environment for services started against this fleet (in-process or as child processes). */
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

/**
 * A control plane with registered tenants, each with its own migrated commerce and aplt
 * databases, all private to the calling test file and removed by cleanup().
 */
export async function createTestFleet(tenants: TestTenantSpec[]): Promise<TestFleet> {
  const { pg } = testServers();
  const control = await createTestPgDatabase('control');
  const registry = new TenantRegistry(control.db, 0);
  const tenantDbs = new Map<string, TestTenantDatabases>();
  try {
    for (const t of tenants) {
      const [commerce, aplt] = await Promise.all([
        createTestPgDatabase('commerce', `c_${t.id}`),
        createTestPgDatabase('aplt', `a_${t.id}`),
      ]);
      tenantDbs.set(t.id, { commerce, aplt });
      await registry.add({
        id: t.id,
        kind: t.kind ?? 'tenant',
        name: t.id,
        hosts: t.hosts ?? [`${t.id.replace(/_/g, '-')}.localhost`],
        commerceDb: { database: commerce.name },
        apltDb: { database: aplt.name },
      });
    }
  } catch (err) {
    await Promise.allSettled([
      control.drop(),
      ...[...tenantDbs.values()].flatMap((d) => [d.commerce.drop(), d.aplt.drop()]),
    ]);
    throw err;
  }
  const databases = new TenantDatabases({ commerce: pg, aplt: pg });
  const env: Record<string, string> = {
    PG_HOST: pg.host,
    PG_PORT: String(pg.port),
    PG_USER: pg.user,
    CONTROL_DB: control.name,
    ...(pg.password ? { PG_PASS: pg.password } : {}),
  };
  return {
    control,
    registry,
    databases,
    tenantDbs,
    env,
    async cleanup() {
      await databases.close();
      await Promise.allSettled(
        [...tenantDbs.values()].flatMap((d) => [d.commerce.drop(), d.aplt.drop()]).concat(control.drop()),
      );
    },
  };
}
