export {
  createPgDb,
  createMysqlDb,
  withPgClient,
  type PgClient,
  type PgServer,
  type PgAddress,
  type MysqlAddress,
} from './connection';
export {
  migrateToLatest,
  migrationsOf,
  migrationFingerprint,
  type DatabaseKind,
  databaseKinds,
} from './migrate';
export {
  TenantRegistry,
  type TenantRecord,
  type TenantKind,
  tenantKinds,
  type DbLocation,
  normaliseHost,
} from './registry';
export { TenantDatabases } from './tenant-databases';
export {
  ensurePgDatabase,
  dropPgDatabase,
  provisionTenant,
  parsePgPlacement,
  type PgPlacement,
  migrateTenantDatabases,
  type TenantServers,
  tenantDatabaseNames,
  ensureMysqlDatabase,
} from './provision';
export {
  isForeignKeyViolation,
  isUniqueViolation,
  isCheckViolation,
  isDatabaseUnavailable,
  pgErrorCode,
} from './pg-errors';
export {
  sql,
  type Kysely,
  type RawBuilder,
  type Transaction,
  type Selectable,
  type Insertable,
  type KyselyPlugin,
  type QueryResult,
  type UnknownRow,
} from 'kysely';
export { newId } from './ids';
export { migrateFleet } from './fleet-migrate';
export {
  actorTokenValid,
  revokeTokensBefore,
  spendResetTokens,
  type ActorTokenFacts,
} from './actor-tokens.repository';
export type {
  AccessDatabase,
  ApltDatabase,
  CommerceDatabase,
  ControlDatabase,
  PortalDatabase,
} from './types';
