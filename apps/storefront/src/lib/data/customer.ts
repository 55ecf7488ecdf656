import { FetchError } from '@medusajs/js-sdk';
import { cache } from 'react';
import { storeSdk } from '../sdk';
import { customerToken } from './customer-session';
import { ApiError, storeJson, storeRaw } from './store-api';

/*
 * The customer account against the auth service's store routes (spec 1, "Storefront customers"):
 * sign-up with e-mail verification, sign-in with remember-me and the e-mailed second factor,
 * profile, avatar, 2FA and deletion. Server only: the JWT never reaches the browser's scripts.
 */

export type Language = 'nl' | 'en' | 'de';
export interface Notifications {
  orders: boolean;
  quotes: boolean;
  newsletter: boolean;
}

export interface Customer {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  company_name: string | null;
  email_verified: boolean;
  preferred_language: Language;
  notifications: Notifications;
  avatar_url: string | null;
  created_at: string;
  updated_at: string;
}

/** The signed-in customer, once per request; null without a (valid) session. */
export const retrieveCustomer = cache(async (): Promise<Customer | null> => {
  if (!(await customerToken())) return null;
  try {
    return (await storeJson<{ customer: Customer }>('/store/customers/me')).customer;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 404)) return null;
    throw err;
  }
});

export const displayName = (c: Pick<Customer, 'first_name' | 'last_name' | 'email'>) =>
  [c.first_name, c.last_name].filter(Boolean).join(' ').trim() || c.email;

/** How the second step of a sign-in is proved: an e-mailed code, or an authenticator app's. */
export type TwoFactorMethod = 'email' | 'authenticator';

export type LoginResult =
  { token: string } | { otp_required: true; otp_token: string; method?: TwoFactorMethod };

/** `lang`: the page's language, for the e-mailed login code of a customer without a preferred one. */
export function login(
  email: string,
  password: string,
  rememberMe: boolean,
  lang?: Language,
): Promise<LoginResult> {
  return storeJson<LoginResult>('/auth/customer/emailpass', {
    method: 'POST',
    auth: false,
    body: { email, password, remember_me: rememberMe, ...(lang ? { lang } : {}) },
  });
}

/** The second step of a 2FA sign-in, with the pending token of the password step. */
export function completeOtp(
  otpToken: string,
  body: { email: string; code: string } | { email: string; recovery_code: string },
): Promise<{ token: string }> {
  return storeJson<{ token: string }>('/store/auth/otp', { method: 'POST', token: otpToken, body });
}

export async function resendOtp(otpToken: string, email: string, lang?: Language): Promise<void> {
  await storeJson('/store/auth/otp', {
    method: 'POST',
    token: otpToken,
    body: { email, resend: true, ...(lang ? { lang } : {}) },
  });
}

export async function register(input: {
  email: string;
  password: string;
  first_name?: string;
  last_name?: string;
  company_name?: string;
  /** The page's language: the verification e-mail's, kept as the customer's preferred language. */
  lang?: Language;
}): Promise<void> {
  await storeJson('/store/customers', { method: 'POST', auth: false, body: input });
}

export function verifyEmail(token: string): Promise<{ verified: true; email: string }> {
  return storeJson('/store/customers/verify-email', { method: 'POST', auth: false, body: { token } });
}

export async function resendVerification(email: string, lang?: Language): Promise<void> {
  await storeJson('/store/customers/verify-email/resend', {
    method: 'POST',
    auth: false,
    body: { email, ...(lang ? { lang } : {}) },
  });
}

/**
 * Asks the auth service to e-mail a reset link (`<store_base_url>/reset-password?token=..&email=..`).
 * It answers 201 without a body whether or not the address is known; the SDK's own call asks for
 * text, as JSON parsing of that empty answer would fail. `lang`: the page's, for the e-mail of a
 * customer without a preferred language.
 */
export async function requestPasswordReset(email: string, lang?: Language): Promise<void> {
  const body: { identifier: string; lang?: Language } = { identifier: email, ...(lang ? { lang } : {}) };
  try {
    await (await storeSdk()).auth.resetPassword('customer', 'emailpass', body);
  } catch (err) {
    throw err instanceof FetchError
      ? new ApiError(err.status ?? 0, err.message)
      : new ApiError(0, err instanceof Error ? err.message : String(err));
  }
}

/**
 * Sets a new password with the e-mailed reset token (never the session's JWT): 401 for a token
 * that is invalid, expired or used, 400 for a password the rules refuse.
 */
export async function resetPassword(resetToken: string, password: string): Promise<void> {
  if (!resetToken) throw new ApiError(401, 'Invalid token');
  await storeJson('/auth/customer/emailpass/update', {
    method: 'POST',
    token: resetToken,
    body: { password },
  });
}

export interface ProfilePatch {
  first_name?: string | null;
  last_name?: string | null;
  phone?: string | null;
  company_name?: string | null;
  preferred_language?: Language;
  notifications?: Partial<Notifications>;
}

export async function updateProfile(patch: ProfilePatch): Promise<Customer> {
  return (await storeJson<{ customer: Customer }>('/store/customers/me', { method: 'PUT', body: patch }))
    .customer;
}

/** Field "file": a JPEG or PNG of at most 2 MB; the API checks the content itself. */
export async function uploadAvatar(file: Blob, name: string): Promise<void> {
  const form = new FormData();
  form.append('file', file, name);
  await storeRaw('/store/customers/me/avatar', { method: 'PUT', body: form });
}

export async function removeAvatar(): Promise<void> {
  await storeJson('/store/customers/me/avatar', { method: 'DELETE' });
}

export const fetchAvatar = () => storeRaw('/store/customers/me/avatar');

export function twoFactorStatus(): Promise<{
  enabled: boolean;
  method: TwoFactorMethod | null;
  recovery_codes_remaining: number;
}> {
  return storeJson('/store/customer/2fa');
}

/** What an authenticator enrolment shows once: the QR code, the key as text, and its lifetime. */
export interface AuthenticatorSetup {
  secret: string;
  otpauth_uri: string;
  qr_data_url: string;
  expires_in: number;
}

/** Starts an authenticator-app enrolment (the password is asked again). */
export async function startAuthenticatorSetup(password: string): Promise<AuthenticatorSetup> {
  const { setup } = await storeJson<{ setup: AuthenticatorSetup }>('/store/customer/2fa', {
    method: 'POST',
    body: { enabled: true, method: 'authenticator', password },
  });
  return {
    secret: setup.secret,
    otpauth_uri: setup.otpauth_uri,
    qr_data_url: setup.qr_data_url,
    expires_in: setup.expires_in,
  };
}

/** The app's first code turns it on; the answer holds the 8 recovery codes, this once. */
export function confirmAuthenticator(code: string): Promise<{ enabled: true; recovery_codes: string[] }> {
  return storeJson('/store/customer/2fa', {
    method: 'POST',
    body: { enabled: true, method: 'authenticator', code },
  });
}

/** Turning 2FA on answers the 8 recovery codes: the only time they exist in plain text. */
export function enableTwoFactor(): Promise<{ enabled: true; recovery_codes: string[] }> {
  return storeJson('/store/customer/2fa', { method: 'POST', body: { enabled: true } });
}

export async function disableTwoFactor(password: string): Promise<void> {
  await storeJson('/store/customer/2fa', { method: 'POST', body: { enabled: false, password } });
}

/** Soft delete now; the auth service anonymises the personal data later, documents are kept. */
export function deleteAccount(password: string): Promise<{ deleted: true; anonymise_after: string }> {
  return storeJson('/store/customers/me', { method: 'DELETE', body: { password } });
}
