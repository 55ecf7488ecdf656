import type { Migration } from 'kysely';

// The access service's tables (users, sessions, device tokens, whitelist, licenses, audit).
export const migrations: Record<string, Migration> = {};
