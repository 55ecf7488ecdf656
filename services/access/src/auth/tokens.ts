import { createHash, randomBytes, randomInt } from 'node:crypto';

/** Opaque cookie tokens; only their sha256 is stored, so the table never holds a usable cookie. */
export const newToken = () => randomBytes(32).toString('base64url');
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
export const newOtpCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

export const SESSION_COOKIE = 'aplt_session';
export const DEVICE_COOKIE = 'aplt_device';
export const CSRF_COOKIE = 'aplt_csrf';
