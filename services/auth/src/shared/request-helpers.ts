import type { TenantRecord } from '@aplt/db';
import type { FastifyRequest } from 'fastify';

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  return undefined;
}

/** Admin links go to the admin panel, customer links to the storefront. */
export type LinkAudience = 'admin' | 'store';

/**
 * A link into the tenant's admin panel or storefront, built from the public URL the tenant
 * registry holds (`tenants.admin_base_url`, `tenants.store_base_url`) and never from the
 * request: its Host header is whatever the client sent. Undefined when the registry has no
 * usable URL; callers then send no link at all.
 */
export function tenantLink(
  tenant: TenantRecord,
  audience: LinkAudience,
  path: string,
  query: Record<string, string>,
): string | undefined {
  const base = audience === 'admin' ? tenant.adminBaseUrl : tenant.storeBaseUrl;
  if (!base) return undefined;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password)
    return undefined;
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  url.search = '';
  url.hash = '';
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url.toString();
}

/** The registry column an operator must fill for links of this audience (for log lines). */
export const linkColumn = (audience: LinkAudience) =>
  audience === 'admin' ? 'tenants.admin_base_url' : 'tenants.store_base_url';
