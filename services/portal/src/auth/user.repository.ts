import type { Executor } from '../db';
import { sql } from '@aplt/db';

type Db = Executor;

export const roles = ['admin', 'developer', 'client'] as const;
export type Role = (typeof roles)[number];

export interface UserRow {
  id: number;
  email: string;
  name: string;
  password_hash: string;
  is_active: number;
  role: Role;
  password_changed_at: Date | null;
}

const columns = ['id', 'email', 'name', 'password_hash', 'is_active', 'role', 'password_changed_at'] as const;

/** Only active users can sign in (spec 1, authentication 4). */
export async function findActiveByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return (await db
    .selectFrom('users')
    .select(columns as never)
    .where('email', '=', email)
    .where('is_active', '=', 1)
    .executeTakeFirst()) as UserRow | undefined;
}

export async function findById(db: Db, id: number): Promise<UserRow | undefined> {
  return (await db
    .selectFrom('users')
    .select(columns as never)
    .where('id', '=', id)
    .executeTakeFirst()) as UserRow | undefined;
}

export async function setPassword(db: Db, id: number, hash: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: hash, password_changed_at: sql`CURRENT_TIMESTAMP(3)` })
    .where('id', '=', id)
    .execute();
}

export async function insertUser(
  db: Db,
  values: { email: string; name: string; password_hash: string; role: Role; is_active?: number },
): Promise<number> {
  const res = await db.insertInto('users').values(values).executeTakeFirstOrThrow();
  return Number(res.insertId);
}
