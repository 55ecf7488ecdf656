import type { PortalDb } from '../src/db';
import { type SmtpSink } from '@aplt/testing';
import bcrypt from 'bcrypt';
import { insertUser } from '../src/auth/user.repository';

export const PASSWORD = 'Portal-Passw0rd!';

/** Test users with real (low-cost) bcrypt hashes, as the seed and the service write them. */
export async function addUser(
  db: PortalDb,
  email: string,
  role: 'admin' | 'developer' | 'client',
  opts: { active?: boolean; password?: string } = {},
): Promise<number> {
  return insertUser(db, {
    email,
    name: email.split('@')[0] ?? email,
    password_hash: await bcrypt.hash(opts.password ?? PASSWORD, 4),
    role,
    is_active: opts.active === false ? 0 : 1,
  });
}

export function sessionCookie(setCookie: string | string[] | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const hit = all.find((c) => c.startsWith('service_portal_sid='));
  if (!hit) throw new Error('no session cookie set');
  return hit.split(';')[0] as string;
}

/** The newest code mailed to `to` after `seen` messages had arrived. */
export async function mailedCode(sink: SmtpSink, to: string, seen: number): Promise<string> {
  const mail = await sink.waitFor((m) => sink.messages.indexOf(m) >= seen && m.envelope.to.includes(to));
  const match = /\b(\d{6})\b/.exec(mail.parsed.text ?? '');
  if (!match) throw new Error('no code in mail');
  return match[1] as string;
}

export interface CsrfPair {
  token: string;
  cookie: string;
}

/** A CSRF token and the cookie with its secret, as a client gets them from GET /api/csrf. */
export async function csrfPair(app: {
  inject: (o: {
    method: 'GET';
    url: string;
  }) => Promise<{ json: () => { csrf_token: string }; headers: Record<string, unknown> }>;
}): Promise<CsrfPair> {
  const res = await app.inject({ method: 'GET', url: '/api/csrf' });
  const all = ([] as string[]).concat(res.headers['set-cookie'] as string | string[]);
  const cookie = all.find((c) => c.startsWith('portal_csrf='))?.split(';')[0];
  if (!cookie) throw new Error('no CSRF cookie set');
  return { token: res.json().csrf_token, cookie };
}

/** `headers` with the CSRF token added and its cookie beside any cookie already there. */
export const withCsrf = (pair: CsrfPair, headers: Record<string, string> = {}) => ({
  ...headers,
  'x-csrf-token': pair.token,
  cookie: [pair.cookie, headers.cookie].filter(Boolean).join('; '),
});
