import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/*
 * The partner password is stored sealed (AES-256-GCM) in the tenant's aplt_settings: a copy of
 * the database alone does not reveal it. The key is derived (HKDF-SHA256) from the service's
 * JWT_SECRET and the tenant id, so a sealed value copied into another tenant does not open
 * there. Rotating JWT_SECRET makes stored passwords unreadable: the sync then fails with a
 * message asking for the password again (documented in docs/decisions.md).
 */

const VERSION = 'v1';

function keyFor(masterSecret: string, tenantId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', masterSecret, 'aplt-partner', `partner-credentials:${tenantId}`, 32));
}

export function sealCredential(masterSecret: string, tenantId: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(masterSecret, tenantId), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64url'), tag.toString('base64url'), body.toString('base64url')].join('.');
}

/** The plain value, or null when it cannot be opened (another key, altered, not sealed). */
export function openCredential(masterSecret: string, tenantId: string, sealed: string): string | null {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      keyFor(masterSecret, tenantId),
      Buffer.from(iv, 'base64url'),
    );
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}
