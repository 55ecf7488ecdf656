import type { Kysely, Transaction } from '@aplt/db';

/** The access database handle; repositories take an optional transaction in its place. */
export type AccessDb = Kysely<any>;
export type Executor = Kysely<any> | Transaction<any>;
