import type { Migration } from 'kysely';
import * as m0101 from './0101_access_schema';

// The access service's tables (users, sessions, device tokens, whitelist, licenses, audit).
export const migrations: Record<string, Migration> = { '0101_access_schema': m0101 };
