import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

/**
 * Authenticator-app codes (TOTP, RFC 6238: SHA-1, 6 digits, 30 s, what every authenticator app
 * understands) through otplib, and the secret's encryption at rest. The recovery codes are
 * @aplt/passwords' (the customers' second factor uses the same).
 */

const PERIOD = 30;
/** One step either side: a phone clock a little off, or a code typed as it rolled over. */
const TOLERANCE_SECONDS = PERIOD;
const ISSUER = 'APLT Access';

export const newTotpSecret = () => generateSecret();

/** The otpauth:// URI an authenticator app reads from the QR code, and the QR code as SVG. */
export async function enrolmentOf(secret: string, email: string) {
  const uri = generateURI({ issuer: ISSUER, label: email, secret, period: PERIOD });
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { otpauth_uri: uri, qr_svg: svg };
}

/**
 * The time step `code` is valid for, when it is valid and newer than `afterStep` (the last step
 * accepted for this user: a code seen over a shoulder cannot be used again); null otherwise.
 */
export async function acceptedStep(
  secret: string,
  code: string,
  afterStep: number | null,
  now = Date.now(),
): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    period: PERIOD,
    epoch: Math.floor(now / 1000),
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

// AES-256-GCM under a key derived from ACCESS_TOTP_KEY; the user id is bound in as associated
// data, so a secret copied onto another user's row does not decrypt there.
const keyOf = (secret: string) =>
  Buffer.from(hkdfSync('sha256', secret, 'aplt-access', 'totp secret v1', 32));

export function sealSecret(key: string, userId: number, totpSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(key), iv);
  cipher.setAAD(Buffer.from(`user:${userId}`));
  const body = Buffer.concat([cipher.update(totpSecret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The secret, or null when the value was sealed under another key or for another user. */
export function openSecret(key: string, userId: number, sealed: string): string | null {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(key), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(`user:${userId}`));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}
