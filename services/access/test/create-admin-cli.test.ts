import type { AccessDatabase } from '@aplt/db';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { verifyPassword } from '@aplt/passwords';
import { createTestPgDatabase, type TestPgDatabase } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('access:create-admin CLI', () => {
  let db: TestPgDatabase<AccessDatabase>;
  beforeAll(async () => {
    db = await createTestPgDatabase('access', 'cli');
  });
  afterAll(async () => {
    await db?.drop();
  });

  const cli = (args: string[], password: string) =>
    run(process.execPath, ['--import', 'tsx', 'services/access/src/cli/create-admin.ts', ...args], {
      env: {
        ...process.env,
        PG_HOST: db.address.host,
        PG_PORT: String(db.address.port),
        PG_USER: db.address.user,
        PG_DB: db.name,
        ACCESS_ADMIN_PASSWORD: password,
      },
    });

  it('creates the first admin with both admin roles, and refuses a weak password or a duplicate', async () => {
    const { stdout } = await cli(['First@Example.com'], 'Correct-Horse-42!');
    expect(stdout).toContain('created first@example.com');
    const user = await db.db.selectFrom('access_users').selectAll().executeTakeFirstOrThrow();
    expect(user.roles).toEqual(['access-admin', 'license-admin']);
    expect(await verifyPassword(user.password_hash, 'Correct-Horse-42!')).toBe(true);
    await expect(cli(['weak@example.com'], 'weak')).rejects.toMatchObject({
      stderr: expect.stringContaining('at least 12 characters'),
    });
    await expect(cli(['first@example.com'], 'Correct-Horse-42!')).rejects.toMatchObject({
      stderr: expect.stringContaining('already exists'),
    });
  });
});
