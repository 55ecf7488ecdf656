import type { Identity } from '../auth/session.repository';
import type { IdentityCache } from './identity-cache';
import type { Whitelist } from './whitelist';

export type Decision =
  | { allow: true; via: 'whitelist' | 'session' | 'device'; identity: Identity | null }
  | { allow: false; reason: 'no_credentials' | 'invalid_session' | 'invalid_device' };

const WHITELISTED: Decision = Object.freeze({ allow: true, via: 'whitelist', identity: null });

type Input = { ip: string; sessionToken: string | undefined; deviceToken: string | undefined };

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
  const device = !session && input.deviceToken ? deps.identities.deviceNow(input.deviceToken) : null;
  if (device === undefined) return undefined;
  return byCookies(input, session, device);
}

/** Whitelist first (no cookie needed), then the session, then the device token. */
export async function decide(deps: Deps, input: Input): Promise<Decision> {
  if (await deps.whitelist.allows(input.ip)) return WHITELISTED;
  const session = input.sessionToken ? await deps.identities.session(input.sessionToken) : null;
  const device = !session && input.deviceToken ? await deps.identities.device(input.deviceToken) : null;
  return byCookies(input, session, device);
}

/** A live session allows, else a live device token; a denial names the last cookie that failed. */
function byCookies(input: Input, session: Identity | null, device: Identity | null): Decision {
  if (session) return { allow: true, via: 'session', identity: session };
  if (device) return { allow: true, via: 'device', identity: device };
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
