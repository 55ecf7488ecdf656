/**
 * Creates the first admin user: `pnpm access:create-admin <email> [--roles a,b] [--tenant id]`
 * with the password from ACCESS_ADMIN_PASSWORD or typed at the prompt. Policy rules apply.
 */
import { createInterface } from 'node:readline/promises';
import { loadEnv, pgAddressFromEnv, pgEnv } from '@aplt/config';
import { type AccessDatabase, createPgDb, isUniqueViolation } from '@aplt/db';
import { createUser } from '../auth/login.service';
import { configShape } from '../config';

const args = process.argv.slice(2);
const email = args.find((a) => !a.startsWith('--') && args[args.indexOf(a) - 1]?.startsWith('--') !== true);
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
if (!email) {
  console.error(
    'usage: access:create-admin <email> [--roles access-admin,license-admin] [--tenant <tenant_id>]',
  );
  process.exit(2);
}
// Only the database settings: creating a user needs none of the service's secrets.
const config = loadEnv({ ...pgEnv, PG_DB: configShape.PG_DB });
let password = process.env.ACCESS_ADMIN_PASSWORD;
if (!password) {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  password = await rl.question('Password: ');
  rl.close();
}
const db = createPgDb<AccessDatabase>({ ...pgAddressFromEnv(config), database: config.PG_DB });
try {
  const roles = (opt('roles') ?? 'access-admin,license-admin').split(',').filter(Boolean);
  const user = await createUser({ db }, { email, password, roles, tenantId: opt('tenant') ?? null });
  console.log(`created ${user.email} (id ${user.id}) with roles ${roles.join(', ')}`);
} catch (err) {
  console.error(
    isUniqueViolation(err) ? `${email} already exists` : err instanceof Error ? err.message : err,
  );
  process.exitCode = 1;
} finally {
  await db.destroy();
}
