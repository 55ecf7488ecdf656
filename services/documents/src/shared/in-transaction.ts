import type { Kysely, Transaction } from '@aplt/db';

/**
 * Runs `fn` in the caller's transaction when given one, else in a new one: a route can then put
 * a change and its audit row in one transaction, so neither exists without the other.
 */
export function inTransaction<DB, T>(db: Kysely<DB>, fn: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db as Transaction<DB>) : db.transaction().execute(fn);
}
