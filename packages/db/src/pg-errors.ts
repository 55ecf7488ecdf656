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

// Socket errors of a server that is down, restarting or unreachable.
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
// SQLSTATEs of a server going away or not taking connections: 57P01 admin_shutdown, 57P02
// crash_shutdown, 57P03 cannot_connect_now (starting or stopping), 53300 too_many_connections,
// and 3D000 invalid_catalog_name: the tenant's database is not there (being moved to another
// server, docs/deploy.md), which the registry will point elsewhere shortly.
const unavailableStates = new Set(['57P01', '57P02', '57P03', '53300', '3D000']);
// node-postgres signals a lost or timed-out connection with plain Errors that carry no code.
const unavailableMessages = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'connection error and is not queryable',
  'Client was closed and is not queryable',
  // 55000 at connect time: ALTER DATABASE ... ALLOW_CONNECTIONS false (a tenant being moved).
  'is not currently accepting connections',
];

/**
 * True when `err` says a database server could not be reached or dropped the connection, as
 * opposed to a query that failed on a working server. A request that meets one answers 503
 * (the server may be back in a moment); the error handler of @aplt/http maps it.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 3) return false;
  const code = pgErrorCode(err);
  if (code && (socketCodes.has(code) || unavailableStates.has(code) || code.startsWith('08'))) return true;
  const message = (err as { message?: unknown }).message;
  if (typeof message === 'string' && unavailableMessages.some((m) => message.includes(m))) return true;
  // An AggregateError of a host that resolves to several addresses, each refused. Causes are
  // not followed: a failed fetch to another service carries ECONNREFUSED there too.
  const inner = (err as { errors?: unknown }).errors;
  return Array.isArray(inner) && inner.length > 0 && inner.every((e) => isDatabaseUnavailable(e, depth + 1));
}
