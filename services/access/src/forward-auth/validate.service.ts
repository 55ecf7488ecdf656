import { isPlatformStaff } from '../auth/roles';
import type { Identity } from '../auth/session.repository';
import type { HostEntry } from './host-tenants';
import type { IdentityCache } from './identity-cache';
import type { Whitelist } from './whitelist';

export type Decision =
  | { allow: true; via: 'whitelist' | 'session' | 'device' | 'shop'; identity: Identity | null }
  | {
      allow: false;
      reason: 'no_credentials' | 'invalid_session' | 'invalid_device' | 'wrong_tenant' | 'wrong_host';
    };

const WHITELISTED: Decision = Object.freeze({ allow: true, via: 'whitelist', identity: null });
/**
 * A registered tenant's shop host under ACCESS_SHOP_POLICY=public: anyone may reach the
 * storefront, whose gatekeeper decides by the visitor's address (spec 1); the signed assertion
 * still tells the storefront the request came through the proxy (docs/decisions.md).
 */
export const SHOP_VISITOR: Decision = Object.freeze({ allow: true, via: 'shop', identity: null });

type Input = {
  ip: string;
  sessionToken: string | undefined;
  deviceToken: string | undefined;
  host: HostEntry;
};

type Deps = { whitelist: Whitelist; identities: IdentityCache };

/**
 * The decision from what is in memory, without a promise (the common case: forward auth asks
 * about the same clients all the time); undefined when a cache must load first (then `decide`).
 */
export function decideNow(deps: Deps, input: Input): Decision | undefined {
  const listed = deps.whitelist.allowsNow(input.ip);
  if (listed === undefined) return undefined;
  if (listed) return WHITELISTED;
  const session = input.sessionToken ? deps.identities.sessionNow(input.sessionToken) : null;
  if (session === undefined) return undefined;
  if (session !== null && passes(session, input.host) === null)
    return { allow: true, via: 'session', identity: session };
  const device = input.deviceToken ? deps.identities.deviceNow(input.deviceToken) : null;
  if (device === undefined) return undefined;
  return byCookies(input, session, device);
}

/** Whitelist first (no cookie needed), then the session, then the device token. */
export async function decide(deps: Deps, input: Input): Promise<Decision> {
  if (await deps.whitelist.allows(input.ip)) return WHITELISTED;
  const session = input.sessionToken ? await deps.identities.session(input.sessionToken) : null;
  const device =
    input.deviceToken && !(session && passes(session, input.host) === null)
      ? await deps.identities.device(input.deviceToken)
      : null;
  return byCookies(input, session, device);
}

/**
 * Tenant binding: null when the identity may pass on this host. A user of a tenant passes only
 * on that tenant's hosts (platform staff, without a tenant or with a platform role, everywhere); a hand-over child
 * session only on the host it was made for.
 */
function passes(identity: Identity, host: HostEntry): 'wrong_tenant' | 'wrong_host' | null {
  if (identity.boundHost !== null && identity.boundHost !== host.host) return 'wrong_host';
  if (identity.tenantId !== host.tenant && !isPlatformStaff(identity)) return 'wrong_tenant';
  return null;
}

/**
 * A live session that may pass here allows, else such a device token; a denial names why: a
 * live credential refused on this host, else the last cookie that failed.
 */
function byCookies(input: Input, session: Identity | null, device: Identity | null): Decision {
  const sessionRefusal = session ? passes(session, input.host) : null;
  if (session && sessionRefusal === null) return { allow: true, via: 'session', identity: session };
  const deviceRefusal = device ? passes(device, input.host) : null;
  if (device && deviceRefusal === null) return { allow: true, via: 'device', identity: device };
  const refused = deviceRefusal ?? sessionRefusal;
  if (refused) return { allow: false, reason: refused };
  return {
    allow: false,
    reason: input.deviceToken ? 'invalid_device' : input.sessionToken ? 'invalid_session' : 'no_credentials',
  };
}

export type Negotiated = 'json' | 'page' | 'redirect' | 'see_other';

/**
 * Like Authelia: XHR/fetch and clients that do not accept HTML get JSON; a browser navigation
 * with GET/HEAD gets the page (or a 302 to login, by configuration); other methods a 303.
 */
export function negotiate(
  headers: {
    accept?: string | undefined;
    xRequestedWith?: string | undefined;
    secFetchMode?: string | undefined;
  },
  method: string,
  mode: 'page' | 'redirect',
): Negotiated {
  const xhr = headers.xRequestedWith?.toLowerCase() === 'xmlhttprequest';
  const fetchApi = headers.secFetchMode !== undefined && headers.secFetchMode !== 'navigate';
  if (xhr || fetchApi || !(headers.accept ?? '').includes('text/html')) return 'json';
  if (method === 'GET' || method === 'HEAD') return mode === 'page' ? 'page' : 'redirect';
  return 'see_other';
}
