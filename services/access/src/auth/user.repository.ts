import { sql } from '@aplt/db';
import type { Executor } from '../db';

export interface UserRow {
  id: number;
  email: string;
  password_hash: string;
  roles: string[];
  tenant_id: string | null;
  password_changed_at: Date;
  must_change_password: boolean;
  disabled: boolean;
  created_at: Date;
  /** Set while the user signs in with an authenticator app instead of an e-mailed code. */
  totp_enabled_at: Date | null;
}

export const findUserByEmail = (db: Executor, email: string) =>
  db
    .selectFrom('access_users')
    .selectAll()
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst() as Promise<UserRow | undefined>;

export const findUserById = (db: Executor, id: number) =>
  db.selectFrom('access_users').selectAll().where('id', '=', id).executeTakeFirst() as Promise<
    UserRow | undefined
  >;

export async function insertUser(
  db: Executor,
  user: {
    email: string;
    passwordHash: string;
    roles: string[];
    tenantId?: string | null;
    mustChangePassword?: boolean;
  },
): Promise<UserRow> {
  return (await db
    .insertInto('access_users')
    .values({
      email: user.email.toLowerCase(),
      password_hash: user.passwordHash,
      roles: sql`${sql.val(user.roles)}::text[]`,
      tenant_id: user.tenantId ?? null,
      must_change_password: user.mustChangePassword ?? false,
    })
    .returningAll()
    .executeTakeFirstOrThrow()) as UserRow;
}

/** A new password (into the history too); `mustChange` for one an admin chose. */
export async function setPassword(
  db: Executor,
  userId: number,
  hash: string,
  opts: { mustChange?: boolean } = {},
): Promise<void> {
  await db
    .updateTable('access_users')
    .set({
      password_hash: hash,
      password_changed_at: sql`now()`,
      must_change_password: opts.mustChange ?? false,
    })
    .where('id', '=', userId)
    .execute();
  await insertPasswordHistory(db, userId, hash);
}

export async function insertPasswordHistory(db: Executor, userId: number, hash: string): Promise<void> {
  await db.insertInto('access_password_history').values({ user_id: userId, password_hash: hash }).execute();
}

export const recentPasswordHashes = async (db: Executor, userId: number, limit: number) =>
  (
    await db
      .selectFrom('access_password_history')
      .select('password_hash')
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute()
  ).map((r) => r.password_hash as string);

/** What the user admin lists and answers with (no password hash). */
export const listedColumns = [
  'id',
  'email',
  'roles',
  'tenant_id',
  'disabled',
  'must_change_password',
  'password_changed_at',
  'created_at',
  'totp_enabled_at',
] as const;

export const listUsers = (db: Executor) =>
  db
    .selectFrom('access_users')
    .select([...listedColumns])
    .orderBy('id')
    .execute();

/** Sets what is given (undefined leaves a field; a null tenant makes platform staff). */
export const updateUser = (
  db: Executor,
  id: number,
  patch: {
    roles?: string[] | undefined;
    tenantId?: string | null | undefined;
    disabled?: boolean | undefined;
  },
) =>
  db
    .updateTable('access_users')
    .set({
      ...(patch.roles ? { roles: sql`${sql.val(patch.roles)}::text[]` } : {}),
      ...(patch.tenantId !== undefined ? { tenant_id: patch.tenantId } : {}),
      ...(patch.disabled !== undefined ? { disabled: patch.disabled } : {}),
    })
    .where('id', '=', id)
    .returning([...listedColumns])
    .executeTakeFirst();
