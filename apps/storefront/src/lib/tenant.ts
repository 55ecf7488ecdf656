import { headers } from 'next/headers';
import { runtimeEnv } from './env';

export interface ShopRequest {
  /** The shop host as the visitor typed it, without port: `shop.acme.localhost`. */
  shopHost: string;
  /** The tenant's backend host the store API answers on: `acme.localhost`. */
  apiHost: string;
  tenantId: string;
  /** The visitor's address as the proxy saw it (the right-most X-Forwarded-For entry). */
  visitorIp: string | undefined;
  /** The access service's identity assertion the proxy attached to this request. */
  assertion: string | undefined;
}

/**
 * Which tenant this request is for: the storefront serves every tenant's shop host
 * (`shop.<tenant>.<domain>`) from one process, as the proxy routes them all here.
 */
export async function shopRequest(): Promise<ShopRequest> {
  const h = await headers();
  return shopRequestFrom((name) => h.get(name));
}

/**
 * The same from any request's headers (lower-case names), so the page cache in front of Next
 * (server.mjs, through the gatekeeper's registry) reads a request exactly as the pages do.
 */
export function shopRequestFrom(header: (name: string) => string | null | undefined): ShopRequest {
  const raw = (header('x-forwarded-host') ?? header('host') ?? '').split(',')[0]!.trim().toLowerCase();
  const shopHost = raw.replace(/:\d+$/, '').replace(/\.$/, '');
  const domain = runtimeEnv.proxyDomain();
  const match = shopHostPattern(domain).exec(shopHost);
  const tenantId = match?.[1] ?? 'unknown';
  const forwarded = header('x-forwarded-for');
  const visitorIp = forwarded ? forwarded.split(',').pop()!.trim() : undefined;
  return {
    shopHost,
    apiHost: `${tenantId}.${domain}`,
    tenantId,
    visitorIp,
    assertion: header('x-access-assertion') ?? undefined,
  };
}

let pattern: { domain: string; re: RegExp } | undefined;
/** `shop.<tenant>.<domain>`, compiled once per domain (the page cache asks on every request). */
function shopHostPattern(domain: string): RegExp {
  if (pattern?.domain !== domain)
    pattern = { domain, re: new RegExp(`^shop\\.([a-z0-9-]+)\\.${domain.replace(/\./g, '\\.')}$`) };
  return pattern.re;
}
