import {
  acceptedStep,
  enrolmentOf as sharedEnrolmentOf,
  newTotpSecret,
  openTotpSecret,
  sealTotpSecret,
} from '@aplt/passwords/totp';

/**
 * The staff's authenticator-app codes: the shared TOTP primitives of `@aplt/passwords/totp`
 * (also used by the storefront customers' second factor in the auth service), under the access
 * service's issuer name and sealing domain.
 */

const ISSUER = 'APLT Access';

export { acceptedStep, newTotpSecret };

/** The otpauth:// URI an authenticator app reads from the QR code, and the QR code as SVG. */
export async function enrolmentOf(secret: string, email: string) {
  const { otpauth_uri, qr_svg } = await sharedEnrolmentOf(secret, { issuer: ISSUER, label: email });
  return { otpauth_uri, qr_svg };
}

// AES-256-GCM under a key derived from ACCESS_TOTP_KEY; the user id is bound in as associated
// data, so a secret copied onto another user's row does not decrypt there. The domain and owner
// strings are those the secrets were first sealed with: changing them would lock every user out.
const sealContext = (key: string, userId: number) => ({
  key,
  domain: 'aplt-access',
  owner: `user:${userId}`,
});

export const sealSecret = (key: string, userId: number, totpSecret: string): string =>
  sealTotpSecret(sealContext(key, userId), totpSecret);

/** The secret, or null when the value was sealed under another key or for another user. */
export const openSecret = (key: string, userId: number, sealed: string): string | null =>
  openTotpSecret(sealContext(key, userId), sealed);
