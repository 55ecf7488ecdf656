import type {
  AccessDatabase,
  Kysely,
  PgServer,
  PortalDatabase,
  TenantDatabases,
  TenantRegistry,
  TenantServers,
} from '@aplt/db';
import { accessNotes, seedAccess } from './access';
import { seedAdminUsers } from './admin-users';
import { authNotes, seedAuthCustomers } from './auth';
import { seedCatalogImport, seedCatalogTenants } from './catalog';
import { portalNotes, seedPortal } from './portal';
import { logoModalNotes, seedLogoModal } from './logo-modal';
import { chosenDemoTenants, seedTenants, tenantsNotes } from './tenants';
import { seedDocuments } from './documents';
import { devProjectsNotes, seedDevProjects } from './devprojects';

export interface SeedContext {
  server: PgServer;
  /** Default servers of tenant databases (aplt on APLT_DB_* over PG_*), as every service reads them. */
  tenantServers: TenantServers;
  registry: TenantRegistry;
  databases: TenantDatabases;
  /** The access service's database. */
  access: Kysely<AccessDatabase>;
  /** The portal's MariaDB database. */
  portal: Kysely<PortalDatabase>;
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
  /** Also the marker's step name: renaming a step makes it run again once. */
  name: string;
  /** Raise it when the step seeds something new: every scope marked with a lower version runs it again. */
  version: number;
  /**
   * `fleet`: runs once per fleet (one marker, scope `*`). `tenants`: one marker per tenant; it
   * runs when a tenant lacks one (a tenant added later) and gets the tenant ids that do.
   */
  scope: 'fleet' | 'tenants';
  /** The scopes of a `tenants` step (default: every tenant in the registry). */
  scopes?(ctx: SeedContext): Promise<string[]> | string[];
  /** Steps whose re-run (in this start) makes this one run for all its scopes. */
  dependsOn?: string[];
  /** `pending`: the scopes to seed (tenant ids, or [`*`]). Steps not using it re-seed all, idempotently. */
  run(ctx: SeedContext, pending: string[]): Promise<void>;
  /** Lines for the start-up banner, on every start whether the step ran or not. */
  notes?(ctx: SeedContext): Promise<void> | void;
}

/**
 * Demo data, in order. Each step is idempotent: running it twice changes nothing. The start
 * command runs a step only for scopes without its marker (seed-markers.ts), so a restart on a
 * fleet that already has its data seeds nothing; FLEET_SEED=always runs every step again.
 */
export const seedSteps: SeedStep[] = [
  {
    name: 'tenants',
    version: 1,
    scope: 'tenants',
    scopes: chosenDemoTenants,
    run: seedTenants,
    notes: tenantsNotes,
  },
  { name: 'admin users', version: 1, scope: 'tenants', run: seedAdminUsers },
  { name: 'access', version: 1, scope: 'tenants', run: seedAccess, notes: accessNotes },
  { name: 'storefront customers', version: 1, scope: 'tenants', run: seedAuthCustomers, notes: authNotes },
  { name: 'documents', version: 1, scope: 'tenants', run: seedDocuments },
  { name: 'logo modal demo products', version: 1, scope: 'fleet', run: seedLogoModal, notes: logoModalNotes },
  { name: 'catalog import', version: 1, scope: 'fleet', run: seedCatalogImport },
  {
    name: 'catalog tenants',
    version: 1,
    scope: 'tenants',
    dependsOn: ['logo modal demo products', 'catalog import'],
    run: seedCatalogTenants,
  },
  { name: 'portal users and ticket', version: 1, scope: 'fleet', run: seedPortal, notes: portalNotes },
  { name: 'demo dev project', version: 1, scope: 'tenants', run: seedDevProjects, notes: devProjectsNotes },
];
