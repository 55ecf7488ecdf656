import type { AccessDatabase, Kysely, Transaction } from '@aplt/db';

/** The access database handle (generated types); repositories take a transaction in its place. */
export type AccessDb = Kysely<AccessDatabase>;
export type Executor = Kysely<AccessDatabase> | Transaction<AccessDatabase>;
