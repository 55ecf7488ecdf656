import type { Kysely, PgServer, TenantDatabases, TenantRegistry, TenantServers } from '@aplt/db';
import { seedAccess } from './access';
import { seedAdminUsers } from './admin-users';
import { seedAuthCustomers } from './auth';
import { seedCatalog } from './catalog';
import { seedPortal } from './portal';
import { seedLogoModal } from './logo-modal';
import { seedTenants } from './tenants';
import { seedDocuments } from './documents';
import { seedDevProjects } from './devprojects';

export interface SeedContext {
  server: PgServer;
  /** Default servers of tenant databases (aplt on APLT_DB_* over PG_*), as every service reads them. */
  tenantServers: TenantServers;
  registry: TenantRegistry;
  databases: TenantDatabases;
  /** The access service's database. */
  access: Kysely<any>;
  /** The portal's MariaDB database. */
  portal: Kysely<any>;
  domain: string;
  proxyPort: number;
  log: (line: string) => void;
  /** Lines for the start-up banner (extra demo credentials, URLs). */
  notes: string[];
  env: Record<string, string | undefined>;
  /** Prefix of tenant database names (empty for the demo fleet). */
  dbPrefix: string;
  /** Demo tenant ids to seed; empty means all. */
  tenantFilter: string[];
}

export interface SeedStep {
  name: string;
  run(ctx: SeedContext): Promise<void>;
}

/** Demo data, in order. Each step is idempotent: running the start command twice changes nothing. */
export const seedSteps: SeedStep[] = [
  { name: 'tenants', run: seedTenants },
  { name: 'admin users', run: seedAdminUsers },
  { name: 'access', run: seedAccess },
  { name: 'storefront customers', run: seedAuthCustomers },
  { name: 'documents', run: seedDocuments },
  { name: 'logo modal demo products', run: seedLogoModal },
  { name: 'catalog', run: seedCatalog },
  { name: 'portal users and ticket', run: seedPortal },
  { name: 'demo dev project', run: seedDevProjects },
];
