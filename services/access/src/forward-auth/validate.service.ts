import type { Identity } from '../auth/session.repository';
import type { IdentityCache } from './identity-cache';
import type { Whitelist } from './whitelist';

export type Decision =
  | { allow: true; via: 'whitelist' | 'session' | 'device'; identity: Identity | null }
  | { allow: false; reason: 'no_credentials' | 'invalid_session' | 'invalid_device' };

const WHITELISTED: Decision = Object.freeze({ allow: true, via: 'whitelist', identity: null });

type Input = { ip: string; sessionToken: string | undefined; deviceToken: string | undefined };

/**
 * The decision from what is in memory, without a promise (the common case: forward auth asks
 * about the same clients all the time); undefined when a cache must load first (then `decide`).
 */
export function decideNow(
  deps: { whitelist: Whitelist; identities: IdentityCache },
  input: Input,
): Decision | undefined {
  const listed = deps.whitelist.allowsNow(input.ip);
  if (listed === undefined) return undefined;
  if (listed) return WHITELISTED;
  let reason: 'no_credentials' | 'invalid_session' | 'invalid_device' = 'no_credentials';
  if (input.sessionToken) {
    const identity = deps.identities.sessionNow(input.sessionToken);
    if (identity === undefined) return undefined;
    if (identity) return { allow: true, via: 'session', identity };
    reason = 'invalid_session';
  }
  if (input.deviceToken) {
    const identity = deps.identities.deviceNow(input.deviceToken);
    if (identity === undefined) return undefined;
    if (identity) return { allow: true, via: 'device', identity };
    reason = 'invalid_device';
  }
  return { allow: false, reason };
}

/** Whitelist first (no cookie needed), then the session, then the device token. */
export async function decide(
  deps: { whitelist: Whitelist; identities: IdentityCache },
  input: Input,
): Promise<Decision> {
  if (await deps.whitelist.allows(input.ip)) return WHITELISTED;
  let reason: 'no_credentials' | 'invalid_session' | 'invalid_device' = 'no_credentials';
  if (input.sessionToken) {
    const identity = await deps.identities.session(input.sessionToken);
    if (identity) return { allow: true, via: 'session', identity };
    reason = 'invalid_session';
  }
  if (input.deviceToken) {
    const identity = await deps.identities.device(input.deviceToken);
    if (identity) return { allow: true, via: 'device', identity };
    reason = 'invalid_device';
  }
  return { allow: false, reason };
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
