import { cookies, headers } from 'next/headers';
import { CUSTOMER_COOKIE } from '@lib/data/customer-session';

/*
 * The cookies of the account, all httpOnly and sameSite strict (spec 1): the session JWT
 * (`_commerce_jwt`, 7 days, 30 with remember-me) and, between the password and the code of a
 * 2FA sign-in (e-mailed, or from an authenticator app), the pending sign-in (10 minutes).
 */

const DAY = 86_400;
export const SESSION_DAYS = 7;
export const REMEMBER_DAYS = 30;
const OTP_COOKIE = '_commerce_otp';
const OTP_SECONDS = 10 * 60;

async function secure(): Promise<boolean> {
  const h = await headers();
  return (h.get('x-forwarded-proto') ?? '').split(',')[0]!.trim() === 'https';
}

async function options(maxAge: number) {
  return { httpOnly: true, sameSite: 'strict' as const, secure: await secure(), path: '/', maxAge };
}

export async function setSession(token: string, rememberMe: boolean): Promise<void> {
  const jar = await cookies();
  jar.set(CUSTOMER_COOKIE, token, await options((rememberMe ? REMEMBER_DAYS : SESSION_DAYS) * DAY));
  jar.delete(OTP_COOKIE);
}

export async function clearSession(): Promise<void> {
  const jar = await cookies();
  jar.delete(CUSTOMER_COOKIE);
  jar.delete(OTP_COOKIE);
}

export interface PendingSignIn {
  email: string;
  token: string;
  remember: boolean;
  /** What the code page asks for; e-mail when the API did not say. */
  method: 'email' | 'authenticator';
}

export async function setPendingSignIn(p: PendingSignIn): Promise<void> {
  const value = Buffer.from(JSON.stringify(p)).toString('base64url');
  (await cookies()).set(OTP_COOKIE, value, await options(OTP_SECONDS));
}

export async function pendingSignIn(): Promise<PendingSignIn | undefined> {
  const raw = (await cookies()).get(OTP_COOKIE)?.value;
  if (!raw) return undefined;
  try {
    const p = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<PendingSignIn>;
    if (typeof p.email === 'string' && typeof p.token === 'string')
      return {
        email: p.email,
        token: p.token,
        remember: p.remember === true,
        method: p.method === 'authenticator' ? 'authenticator' : 'email',
      };
  } catch {
    // A damaged cookie is no pending sign-in.
  }
  return undefined;
}
