import type { Kysely, PortalDatabase, Transaction } from '@aplt/db';

/** The portal's MariaDB database (generated types); repositories take a transaction in its place. */
export type PortalDb = Kysely<PortalDatabase>;
export type Executor = PortalDb | Transaction<PortalDatabase>;
