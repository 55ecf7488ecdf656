import { type TenantRegistry, isUniqueViolation } from '@aplt/db';
import { badRequest, conflict, notFound, unprocessable } from '@aplt/http';
import { hashPassword } from '@aplt/passwords';
import type { AccessDb } from '../db';
import type { IdentityCache } from '../forward-auth/identity-cache';
import { createUser } from './login.service';
import { ACCESS_ADMIN_ROLE } from './roles';
import { type Identity, revokeAllOfUser } from './session.repository';
import { complexityProblems } from './password-policy';
import { disableTotp } from './totp.repository';
import * as users from './user.repository';

interface Deps {
  db: AccessDb;
  registry: TenantRegistry;
  identities: IdentityCache;
}

export const listUsers = (db: AccessDb) => users.listUsers(db);

async function assertTenant(registry: TenantRegistry, tenantId: string | null | undefined) {
  if (tenantId && !(await registry.get(tenantId)))
    throw badRequest(`Unknown tenant ${tenantId}`, { tenant_id: tenantId });
}

export async function addUser(
  deps: Deps,
  input: { email: string; password: string; roles: string[]; tenant_id?: string | null | undefined },
) {
  await assertTenant(deps.registry, input.tenant_id);
  try {
    const user = await createUser(deps, {
      email: input.email,
      password: input.password,
      roles: input.roles,
      tenantId: input.tenant_id ?? null,
      // A password someone else chose is changed by its owner at the first login.
      mustChangePassword: true,
    });
    return Object.fromEntries(users.listedColumns.map((c) => [c, user[c]])) as Pick<
      typeof user,
      (typeof users.listedColumns)[number]
    >;
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('A user with this e-mail exists', { email: input.email });
    throw err;
  }
}

/**
 * Roles, tenant and the disabled flag. An admin cannot lock themselves out (disable their own
 * account or drop their own access-admin role); disabling signs the user out everywhere.
 */
export async function updateUser(
  deps: Deps,
  actor: Identity,
  id: number,
  patch: {
    roles?: string[] | undefined;
    tenant_id?: string | null | undefined;
    disabled?: boolean | undefined;
  },
) {
  if (id === actor.userId && (patch.disabled || (patch.roles && !patch.roles.includes(ACCESS_ADMIN_ROLE))))
    throw conflict('You cannot disable your own account or remove your own access-admin role');
  await assertTenant(deps.registry, patch.tenant_id);
  const row = await deps.db.transaction().execute(async (trx) => {
    const updated = await users.updateUser(trx, id, {
      roles: patch.roles,
      tenantId: patch.tenant_id,
      disabled: patch.disabled,
    });
    if (updated && patch.disabled) await revokeAllOfUser(trx, id);
    return updated;
  });
  if (!row) throw notFound('No such user', { id });
  // Roles travel in the identity headers: cached identities must not outlive a change.
  await deps.identities.forgetUser(id);
  return row;
}

/** A temporary password the user must replace at the next login; existing sessions end. */
export async function resetPassword(deps: Deps, id: number, password: string) {
  const problems = complexityProblems(password);
  if (problems.length) throw unprocessable(`Password needs ${problems.join(', ')}`, { problems });
  if (!(await users.findUserById(deps.db, id))) throw notFound('No such user', { id });
  const hash = await hashPassword(password);
  await deps.db.transaction().execute(async (trx) => {
    await users.setPassword(trx, id, hash, { mustChange: true });
    await revokeAllOfUser(trx, id);
  });
  await deps.identities.forgetUser(id);
}

/** An admin takes a user's authenticator app away (lost phone and codes): e-mailed codes again. */
export async function removeAuthenticator(deps: Deps, id: number) {
  if (!(await users.findUserById(deps.db, id))) throw notFound('No such user', { id });
  const removed = await deps.db.transaction().execute((trx) => disableTotp(trx, id));
  if (!removed) throw conflict('This user has no authenticator app', { id });
}
