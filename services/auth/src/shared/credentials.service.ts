import type { TenantRecord } from '@aplt/db';
import { unauthorized } from '@aplt/http';
import { verifyPassword } from '@aplt/passwords';
import type { AuthDeps } from './deps';
import { type EmailpassIdentity, findIdentity } from './identity.repository';

export const INVALID_CREDENTIALS = 'Invalid email or password';

/**
 * Checks e-mail and password. An unknown e-mail still runs one scrypt verify (against a dummy
 * hash), so the answer takes as long as for a wrong password and reveals nothing.
 */
export async function checkCredentials(
  deps: Pick<AuthDeps, 'databases' | 'dummyHash'>,
  tenant: TenantRecord,
  email: string,
  password: string,
): Promise<EmailpassIdentity> {
  const identity = await findIdentity(deps.databases.commerce(tenant), email, 'emailpass');
  const hash = identity?.passwordHash ?? (await deps.dummyHash());
  const ok = await verifyPassword(hash, password);
  if (!identity?.passwordHash || !ok) throw unauthorized(INVALID_CREDENTIALS);
  return identity;
}
