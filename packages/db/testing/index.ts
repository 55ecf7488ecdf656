/**
 * The test harness of the database layer, published as `@aplt/db/testing`: the run's test servers
 * (Postgres, MariaDB and Redis, as the global setup of @aplt/testing started or found them), fresh
 * private databases cloned from the migrated templates, Redis key prefixes private to a test file,
 * test fleets of registered tenants, and a second Postgres server. It lives here, not in
 * @aplt/testing, so that the database package's own tests need no package that depends on it.
 */
export { testServers, testRunId, type TestServers } from './servers';
export {
  createTestPgDatabase,
  createTestMysqlDatabase,
  dropFleetDatabases,
  templateName,
  type TestPgDatabase,
  type TestMysqlDatabase,
  uniqueName,
} from './databases';
export { createTestFleet, type TestFleet, type TestTenantDatabases, type TestTenantSpec } from './fleet';
export { createTestRedis, type TestRedis } from './redis';
export { startPgCluster, type PgCluster } from './pg-cluster';
export { waitForLockHolder, waitForLockWaiter } from './locks';
