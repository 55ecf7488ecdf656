import { normaliseHost } from '@aplt/db';
import type { AccessDb } from '../db';
import { insertDeviceToken } from './session.repository';
import * as tickets from './ticket.repository';
import { newToken, tokenHash } from './tokens';

/** A ticket is carried in one redirect; anything slower than this is not that redirect. */
const TICKET_SECONDS = 60;

/**
 * A Host header's name without its port (cookies do not tell ports apart), normalised as forward
 * auth compares it: a child session is bound to this host.
 */
const hostname = normaliseHost;

/** True when a cookie set by the access host at `accessHost` is also sent to `host`. */
export function cookieCovers(host: string, accessHost: string, cookieDomain: string | undefined): boolean {
  if (hostname(host) === hostname(accessHost)) return true;
  if (!cookieDomain) return false;
  const d = cookieDomain.toLowerCase().replace(/^\./, '');
  return hostname(host) === d || hostname(host).endsWith(`.${d}`);
}

/**
 * A one-time ticket for handing the login of `sessionToken` to the host of `returnUrl` (already
 * checked against the return domains); the caller redirects to that host's callback path.
 */
export async function issueLoginTicket(
  db: AccessDb,
  t: { sessionToken: string; returnUrl: string; trustDevice: boolean },
): Promise<string> {
  const ticket = newToken();
  await tickets.insertTicket(db, {
    id: tokenHash(ticket),
    sessionId: tokenHash(t.sessionToken),
    host: hostname(new URL(t.returnUrl).host),
    returnUrl: t.returnUrl,
    trustDevice: t.trustDevice,
    ttlSeconds: TICKET_SECONDS,
  });
  return ticket;
}

export interface RedeemedTicket {
  sessionToken: string;
  returnUrl: string;
  maxAgeSeconds: number;
  device: { token: string; maxAgeSeconds: number } | null;
}

/**
 * Redeems a ticket on the host it was made for, once: a child session of the login's session
 * (ending with it, and valid on that host only: its `host` is checked by forward auth and by the
 * access host's own routes), plus a device token when the login trusted the device. Null for an unknown,
 * used, expired or foreign-host ticket, or when the login's session has ended meanwhile.
 */
export async function redeemLoginTicket(
  db: AccessDb,
  r: { ticket: string; host: string; ip: string; userAgent: string | undefined; deviceDays: number },
): Promise<RedeemedTicket | null> {
  return db.transaction().execute(async (trx) => {
    const used = await tickets.useTicket(trx, tokenHash(r.ticket), hostname(r.host));
    if (!used) return null;
    const sessionToken = newToken();
    await tickets.insertChildSession(trx, {
      id: tokenHash(sessionToken),
      userId: used.user_id,
      parentId: used.session_id,
      host: hostname(r.host),
      ip: r.ip,
      userAgent: r.userAgent,
      expiresAt: used.expires_at,
    });
    let device: RedeemedTicket['device'] = null;
    if (used.trust_device) {
      const token = newToken();
      await insertDeviceToken(trx, {
        id: tokenHash(token),
        userId: used.user_id,
        label: hostname(r.host),
        days: r.deviceDays,
      });
      device = { token, maxAgeSeconds: r.deviceDays * 86400 };
    }
    return { sessionToken, returnUrl: used.return_url, maxAgeSeconds: used.seconds_left, device };
  });
}
