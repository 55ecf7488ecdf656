import { type ApltDatabase, sql, type Transaction } from '@aplt/db';

/**
 * Runs `attempt` under a savepoint of the transaction. When it throws, the transaction goes back
 * to the savepoint (still usable) and `recover` decides with the error: another way, or rethrow.
 */
export async function withSavepoint<T>(
  trx: Transaction<ApltDatabase>,
  name: string,
  attempt: () => Promise<T>,
  recover: (err: unknown) => Promise<T>,
): Promise<T> {
  const savepoint = sql.id(name);
  await sql`SAVEPOINT ${savepoint}`.execute(trx);
  let result: T;
  try {
    result = await attempt();
  } catch (err) {
    await sql`ROLLBACK TO SAVEPOINT ${savepoint}`.execute(trx);
    await sql`RELEASE SAVEPOINT ${savepoint}`.execute(trx);
    return recover(err);
  }
  await sql`RELEASE SAVEPOINT ${savepoint}`.execute(trx);
  return result;
}
