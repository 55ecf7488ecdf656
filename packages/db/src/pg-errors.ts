/** SQLSTATE of a database error, if it is one. Details stay in the log, never in a response. */
export function pgErrorCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string')
    return err.code;
  return undefined;
}
export const isForeignKeyViolation = (err: unknown) => pgErrorCode(err) === '23503';
export const isUniqueViolation = (err: unknown) =>
  pgErrorCode(err) === '23505' || pgErrorCode(err) === 'ER_DUP_ENTRY';
export const isCheckViolation = (err: unknown) => pgErrorCode(err) === '23514';
