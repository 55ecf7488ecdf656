import { ASSERTION_TTL_SECONDS, type AssertionSigner } from '@aplt/http';
import type { Identity } from '../auth/session.repository';
import type { HostEntry } from './host-tenants';

type Via = 'whitelist' | 'session' | 'device' | 'shop';

interface Signed {
  token: string;
  via: Via;
  renewAt: number;
}

interface PerHost {
  /** The one token of every identity-less allow on this host: whitelist or shop visitor. */
  whitelist: Signed | null;
  byIdentity: WeakMap<Identity, Signed>;
}

/** A token is reused while it has more than half of its life left (as AssertionSigner does). */
const REUSE_MS = (ASSERTION_TTL_SECONDS * 1000) / 2;

/**
 * The identity assertion of an allow (x-access-assertion), signed once and then reused: the same
 * client asks about the same host all the time, and an Ed25519 signature costs more than the
 * whole decision. The cache key is the objects forward auth already holds, not a string built per
 * request: the host entry (host and tenant) and the cached identity (user id, e-mail and roles;
 * the identity cache hands out a new object whenever it reloads a user, so a role change gets a
 * new token). Both maps are weak: a dropped host entry or identity takes its tokens with it.
 */
export class ForwardAssertions {
  private readonly perHost = new WeakMap<HostEntry, PerHost>();

  constructor(private readonly signer: AssertionSigner) {}

  token(host: HostEntry, via: Via, identity: Identity | null, nowMs: number): string {
    let slots = this.perHost.get(host);
    if (slots === undefined) {
      slots = { whitelist: null, byIdentity: new WeakMap() };
      this.perHost.set(host, slots);
    }
    const hit = identity === null ? slots.whitelist : slots.byIdentity.get(identity);
    if (hit !== undefined && hit !== null && hit.via === via && hit.renewAt > nowMs) return hit.token;
    const signed: Signed = {
      token: this.signer.sign(
        {
          sub: identity?.email ?? (via === 'shop' ? 'visitor' : 'whitelist'),
          host: host.host,
          tenant: host.tenant,
          reason: via,
          roles: identity?.roles ?? [],
        },
        nowMs,
      ),
      via,
      renewAt: nowMs + REUSE_MS,
    };
    if (identity === null) slots.whitelist = signed;
    else slots.byIdentity.set(identity, signed);
    return signed.token;
  }
}
