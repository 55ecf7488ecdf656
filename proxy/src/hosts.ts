import type { HostKind } from './route-table';

/**
 * The fixed host names; tenant hosts are `<tenant>.<domain>`, shop hosts `shop.<tenant>.<domain>`,
 * preview hosts `<project code>.preview.<tenant>.<domain>`.
 */
export function hostFor(kind: Exclude<HostKind, 'tenant' | 'shop' | 'preview'>, domain: string): string {
  return `${kind}.${domain}`;
}

/** Routes sorted so the longest prefix is tried first: the order both proxies must agree on. */
export function byPrefixLength<T extends { prefix: string }>(routes: readonly T[]): T[] {
  return [...routes].sort((a, b) => b.prefix.length - a.prefix.length || a.prefix.localeCompare(b.prefix));
}
