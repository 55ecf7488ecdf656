import type { Migration } from 'kysely';
import * as m0101 from './0101_access_schema';
import * as m0102 from './0102_access_login_tickets';
import * as m0103 from './0103_access_totp';

// The access service's tables (users, sessions, device tokens, whitelist, licenses, audit).
export const migrations: Record<string, Migration> = {
  '0101_access_schema': m0101,
  '0102_access_login_tickets': m0102,
  '0103_access_totp': m0103,
};
