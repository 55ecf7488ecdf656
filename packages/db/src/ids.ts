import { ulid } from 'ulid';

/** Medusa-style ids: `<prefix>_<ULID>` (authid_, user_, cus_, ...); a bare ULID without a prefix. */
export function newId(prefix?: string): string {
  return prefix ? `${prefix}_${ulid()}` : ulid();
}
