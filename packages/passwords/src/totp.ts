import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { generate, generateSecret, generateURI, verify } from 'otplib';

/**
 * Authenticator-app codes (TOTP, RFC 6238: SHA-1, 6 digits, 30 s, what every authenticator app
 * understands) through otplib, and the secret's encryption at rest. One home for staff (access)
 * and storefront customers (auth); the recovery codes that go with them are in ./recovery-codes.
 * Imported as `@aplt/passwords/totp`, so services that only hash passwords do not load otplib.
 */

const PERIOD = 30;
/** One step either side: a phone clock a little off, or a code typed as it rolled over. */
const TOLERANCE_SECONDS = PERIOD;

export const newTotpSecret = () => generateSecret();

/** The code an authenticator app shows at `now` (what a test or a support tool computes). */
export const totpCodeAt = (secret: string, now = Date.now()) =>
  generate({ secret, period: PERIOD, epoch: Math.floor(now / 1000) });

/**
 * What an enrolment shows: the otpauth:// URI an authenticator app reads from the QR code, the QR
 * code as SVG (for pages that inline markup) and as a PNG data URL (for an <img>). The QR encoder
 * (qrcode with pngjs, some 60 modules) loads at the first enrolment, not with the service.
 */
export async function enrolmentOf(secret: string, who: { issuer: string; label: string }) {
  const { default: QRCode } = await import('qrcode');
  const uri = generateURI({ issuer: who.issuer, label: who.label, secret, period: PERIOD });
  const options = { errorCorrectionLevel: 'M', margin: 2 } as const;
  const [svg, dataUrl] = await Promise.all([
    QRCode.toString(uri, { ...options, type: 'svg' }),
    QRCode.toDataURL(uri, { ...options, width: 240 }),
  ]);
  return { otpauth_uri: uri, qr_svg: svg, qr_data_url: dataUrl };
}

/**
 * The time step `code` is valid for, when it is valid and newer than `afterStep` (the last step
 * accepted for this account: a code seen over a shoulder cannot be used again); null otherwise.
 * The caller still records the step with a conditional UPDATE (`... WHERE last_step < step`), so
 * of two concurrent logins with one code exactly one wins.
 */
export async function acceptedStep(
  secret: string,
  code: string,
  afterStep: number | null,
  now = Date.now(),
): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
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

/**
 * Where a sealed secret belongs: `domain` separates the keys of different services (it is the
 * HKDF salt, so the same key secret never yields the same AES key twice), `owner` is bound in as
 * associated data, so a sealed value copied onto another account's row does not open there.
 */
export interface SealContext {
  key: string;
  domain: string;
  owner: string;
}

// AES-256-GCM under a key derived (HKDF-SHA256) from the service's key secret.
const aesKeyOf = (c: SealContext) => Buffer.from(hkdfSync('sha256', c.key, c.domain, 'totp secret v1', 32));

export function sealTotpSecret(c: SealContext, totpSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', aesKeyOf(c), iv);
  cipher.setAAD(Buffer.from(c.owner));
  const body = Buffer.concat([cipher.update(totpSecret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The secret, or null when the value was sealed under another key, domain or owner, or altered. */
export function openTotpSecret(c: SealContext, sealed: string): string | null {
  const [version, iv, tag, body, ...rest] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined || rest.length > 0) return null;
  try {
    // A full 16-byte tag only: GCM would otherwise check a shortened tag, which is easier to forge.
    const decipher = createDecipheriv('aes-256-gcm', aesKeyOf(c), Buffer.from(iv, 'base64url'), {
      authTagLength: 16,
    });
    decipher.setAAD(Buffer.from(c.owner));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}
