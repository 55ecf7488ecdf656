import type { CommerceDatabase, TenantRecord } from '@aplt/db';
import { unauthorized } from '@aplt/http';
import { verifyPassword } from '@aplt/passwords';
import type { AuthDeps } from './deps';
import { type EmailpassIdentity, findIdentity } from './identity.repository';

export const INVALID_CREDENTIALS = 'Invalid email or password';

/**
 * Checks e-mail and password. The attempt is counted against the account's lockout first (429
 * once it failed too often, whatever the password); an unknown e-mail is counted too and still
 * runs one scrypt verify (against a dummy hash), so neither the answer nor its timing tells
 * whether the account exists.
 */
export async function checkCredentials(
  deps: Pick<AuthDeps, 'databases' | 'dummyHash' | 'lockout'>,
  tenant: TenantRecord,
  email: string,
  password: string,
): Promise<EmailpassIdentity> {
  const succeeded = await deps.lockout.attempt(tenant.id, email);
  const identity = await findIdentity(deps.databases.commerce<CommerceDatabase>(tenant), email, 'emailpass');
  const hash = identity?.passwordHash ?? (await deps.dummyHash());
  const ok = await verifyPassword(hash, password);
  if (!identity?.passwordHash || !ok) throw unauthorized(INVALID_CREDENTIALS);
  await succeeded();
  return identity;
}
