import type { ApltDatabase, CommerceDatabase, TenantRecord } from '@aplt/db';
import { conflict, notFound, unauthorized } from '@aplt/http';
import { newRecoveryCodes, recoveryCodeHash, verifyPassword } from '@aplt/passwords';
import type { AuthDeps } from '../shared/deps';
import { findIdentity } from '../shared/identity.repository';
import { findCustomer } from './customer.repository';
import { disableTwoFactor, enableTwoFactor, findTwoFactor } from './two-factor.repository';

async function customerEmail(deps: AuthDeps, tenant: TenantRecord, customerId: string): Promise<string> {
  const customer = await findCustomer(deps.databases.commerce<CommerceDatabase>(tenant), customerId);
  // Registration always stores an e-mail: a customer without one has no account to secure.
  if (!customer || customer.email === null) throw notFound('Customer not found');
  return customer.email;
}

export async function twoFactorStatus(deps: AuthDeps, tenant: TenantRecord, customerId: string) {
  const email = await customerEmail(deps, tenant, customerId);
  const row = await findTwoFactor(deps.databases.aplt<ApltDatabase>(tenant), email);
  return {
    enabled: row?.enabled ?? false,
    recovery_codes_remaining: row?.enabled ? row.recoveryCodes.length : 0,
  };
}

/** Turns 2FA on and returns the recovery codes: the only time they exist in plain text. */
export async function enableTwoFactorFor(deps: AuthDeps, tenant: TenantRecord, customerId: string) {
  const email = await customerEmail(deps, tenant, customerId);
  const db = deps.databases.aplt<ApltDatabase>(tenant);
  if ((await findTwoFactor(db, email))?.enabled)
    throw conflict('Two-factor authentication is already enabled');
  const codes = newRecoveryCodes();
  await enableTwoFactor(db, email, codes.map(recoveryCodeHash));
  return { enabled: true, recovery_codes: codes };
}

/** Turning 2FA off weakens the account, so it needs the password, not just a session. */
export async function disableTwoFactorFor(
  deps: AuthDeps,
  tenant: TenantRecord,
  customerId: string,
  password: string,
) {
  const email = await customerEmail(deps, tenant, customerId);
  const identity = await findIdentity(deps.databases.commerce<CommerceDatabase>(tenant), email, 'emailpass');
  if (!identity?.passwordHash || !(await verifyPassword(identity.passwordHash, password))) {
    throw unauthorized('Invalid password');
  }
  await disableTwoFactor(deps.databases.aplt<ApltDatabase>(tenant), email);
  return { enabled: false };
}
