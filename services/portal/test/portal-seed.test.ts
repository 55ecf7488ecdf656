import { createTestMysqlDatabase, type TestMysqlDatabase } from '@aplt/testing';
import bcrypt from 'bcrypt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedContext } from '../../../deploy/fleet/seeds/index';
import { demoPortalUsers, portalNotes, seedPortal } from '../../../deploy/fleet/seeds/portal';

describe('portal demo seed', () => {
  let mysql: TestMysqlDatabase;
  beforeAll(async () => {
    mysql = await createTestMysqlDatabase();
  });
  afterAll(async () => {
    await mysql?.drop();
  });

  it('creates the three demo users with bcrypt hashes and one ticket, idempotently', async () => {
    const ctx = {
      portal: mysql.db,
      domain: 'localhost',
      proxyPort: 8080,
      log: () => {},
      notes: [] as string[],
    };
    await seedPortal(ctx as unknown as SeedContext);
    await seedPortal(ctx as unknown as SeedContext);
    // The banner's line comes from the step's notes, written on every start (seeded or not).
    portalNotes(ctx as unknown as SeedContext);
    const users = await mysql.db.selectFrom('users').select(['email', 'role', 'password_hash']).execute();
    expect(users.map((u) => u.role).sort()).toEqual(['admin', 'client', 'developer']);
    for (const demo of demoPortalUsers) {
      const row = users.find((u) => u.email === demo.email);
      expect(await bcrypt.compare(demo.password, row?.password_hash ?? '')).toBe(true);
    }
    const tickets = await mysql.db.selectFrom('tickets').select(['ticket_number', 'tenant_id']).execute();
    expect(tickets).toHaveLength(1);
    expect(tickets[0]).toMatchObject({
      tenant_id: 'acme',
      ticket_number: expect.stringMatching(/^TCK-\d{6}$/),
    });
    expect(ctx.notes[0]).toContain('portal-admin@aplt.localhost');
  });
});
