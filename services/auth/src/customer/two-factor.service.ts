import type { ApltDatabase, CommerceDatabase, TenantRecord } from '@aplt/db';
import { conflict, HttpError, notFound, unauthorized, unprocessable } from '@aplt/http';
import { newRecoveryCodes, recoveryCodeHash } from '@aplt/passwords';
import {
  acceptedStep,
  enrolmentOf,
  newTotpSecret,
  openTotpSecret,
  sealTotpSecret,
} from '@aplt/passwords/totp';
import { checkCredentials } from '../shared/credentials.service';
import type { AuthDeps } from '../shared/deps';
import { findCustomer } from './customer.repository';
import * as repo from './two-factor.repository';

/** An enrolment left unfinished this long must be started again (its QR code was on a screen). */
const ENROLMENT_SECONDS = 600;

async function customerEmail(deps: AuthDeps, tenant: TenantRecord, customerId: string): Promise<string> {
  const customer = await findCustomer(deps.databases.commerce<CommerceDatabase>(tenant), customerId);
  // Registration always stores an e-mail: a customer without one has no account to secure.
  if (!customer || customer.email === null) throw notFound('Customer not found');
  return customer.email;
}

/**
 * The password again, for a change that weakens or replaces the second factor. Counted against
 * the account's lockout like a sign-in, so a stolen session cannot be used to guess it.
 */
async function confirmPassword(deps: AuthDeps, tenant: TenantRecord, email: string, password: string) {
  try {
    await checkCredentials(deps, tenant, email, password);
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 401) throw unauthorized('Invalid password');
    throw err;
  }
}

/**
 * Where a customer's app secret is sealed: AUTH_TOTP_KEY under the auth service's own domain,
 * bound to the tenant and the aplt_customer_2fa row, so a sealed value copied to another
 * customer's row, or into another tenant's database, does not open.
 */
const sealContext = (deps: AuthDeps, tenant: TenantRecord, rowId: number) => ({
  key: deps.config.AUTH_TOTP_KEY,
  domain: 'aplt-auth-customer',
  owner: `tenant:${tenant.id}:aplt_customer_2fa:${rowId}`,
});

export async function twoFactorStatus(deps: AuthDeps, tenant: TenantRecord, customerId: string) {
  const email = await customerEmail(deps, tenant, customerId);
  const row = await repo.findTwoFactor(deps.databases.aplt<ApltDatabase>(tenant), email);
  return {
    enabled: row?.enabled ?? false,
    method: row?.enabled ? row.method : null,
    recovery_codes_remaining: row?.enabled ? row.recoveryCodes.length : 0,
  };
}

/** Turns e-mailed codes on and returns the recovery codes: the only time they exist in plain text. */
export async function enableTwoFactorFor(deps: AuthDeps, tenant: TenantRecord, customerId: string) {
  const email = await customerEmail(deps, tenant, customerId);
  const db = deps.databases.aplt<ApltDatabase>(tenant);
  if ((await repo.findTwoFactor(db, email))?.enabled)
    throw conflict('Two-factor authentication is already enabled');
  const codes = newRecoveryCodes();
  await repo.enableTwoFactor(db, email, codes.map(recoveryCodeHash));
  return { enabled: true, method: 'email' as const, recovery_codes: codes };
}

/**
 * Step 1 of an authenticator enrolment (password confirmed): a fresh secret, shown once as a QR
 * code and as text, kept sealed as pending until a code from the app proves the app holds it.
 * A customer on e-mailed codes may start one: finishing it switches the method.
 */
export async function startAuthenticatorSetup(
  deps: AuthDeps,
  tenant: TenantRecord,
  customerId: string,
  password: string,
) {
  const email = await customerEmail(deps, tenant, customerId);
  await confirmPassword(deps, tenant, email, password);
  const db = deps.databases.aplt<ApltDatabase>(tenant);
  const current = await repo.findTwoFactor(db, email);
  if (current?.enabled && current.method === 'authenticator')
    throw conflict('An authenticator app is already set up; turn it off first');
  const rowId = current?.id ?? (await repo.twoFactorRowId(db, email));
  const secret = newTotpSecret();
  await repo.setPendingSecret(
    db,
    rowId,
    sealTotpSecret(sealContext(deps, tenant, rowId), secret),
    ENROLMENT_SECONDS,
  );
  const shown = await enrolmentOf(secret, { issuer: tenant.name, label: email });
  return {
    enabled: current?.enabled ?? false,
    method: current?.enabled ? current.method : null,
    setup: { secret, ...shown, expires_in: ENROLMENT_SECONDS },
  };
}

/**
 * Step 2: the first code from the app turns it on. From now on the login asks for the app's code
 * and sends no e-mail. The recovery codes are returned this once; only their hashes are kept.
 */
export async function confirmAuthenticator(
  deps: AuthDeps,
  tenant: TenantRecord,
  customerId: string,
  code: string,
) {
  const email = await customerEmail(deps, tenant, customerId);
  const db = deps.databases.aplt<ApltDatabase>(tenant);
  const pending = await repo.livePendingSecret(db, email);
  if (!pending) throw conflict('No authenticator set-up in progress, or it expired; start again');
  const secret = openTotpSecret(sealContext(deps, tenant, pending.id), pending.totp_pending_secret);
  const step = secret ? await acceptedStep(secret, code, null) : null;
  if (step === null)
    throw unprocessable('That code does not match; check the app and the time on the phone', {
      code: 'wrong',
    });
  const codes = newRecoveryCodes();
  const enabled = await repo.enableAuthenticator(db, pending.id, {
    pendingSealed: pending.totp_pending_secret,
    step,
    recoveryHashes: codes.map(recoveryCodeHash),
  });
  if (!enabled) throw conflict('The set-up was finished or restarted meanwhile; start again');
  return { enabled: true, method: 'authenticator' as const, recovery_codes: codes };
}

/**
 * An app code at login: valid for a time step newer than the last one accepted, and that step
 * claimed by a conditional UPDATE, so a code works once even when two logins race with it.
 */
export async function authenticatorCodeAccepted(
  deps: AuthDeps,
  tenant: TenantRecord,
  row: repo.TwoFactorRow,
  code: string,
): Promise<boolean> {
  if (!row.enabled || row.method !== 'authenticator' || !row.sealedSecret) return false;
  const secret = openTotpSecret(sealContext(deps, tenant, row.id), row.sealedSecret);
  if (!secret) {
    deps.log.error(
      { tenant: tenant.id, row: row.id },
      'a customer authenticator secret does not open: AUTH_TOTP_KEY changed, or the row was altered',
    );
    return false;
  }
  const step = await acceptedStep(secret, code, row.lastStep);
  return step !== null && repo.claimStep(deps.databases.aplt<ApltDatabase>(tenant), row.id, step);
}

/** Turning 2FA off weakens the account, so it needs the password, not just a session. */
export async function disableTwoFactorFor(
  deps: AuthDeps,
  tenant: TenantRecord,
  customerId: string,
  password: string,
) {
  const email = await customerEmail(deps, tenant, customerId);
  await confirmPassword(deps, tenant, email, password);
  await repo.disableTwoFactor(deps.databases.aplt<ApltDatabase>(tenant), email);
  return { enabled: false, method: null };
}
