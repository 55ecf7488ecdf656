import { sql } from '@aplt/db';
import { allFeaturesClient } from '@aplt/licensing';
import { createTestFleet, type TestFleet, viaProxy } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { tenantDbs, testEnv } from './fixtures';

/** A store write and its audit row commit together: when the audit cannot be written, nothing changes. */
describe('store automation writes are audited atomically', () => {
  let fleet: TestFleet;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const host = 'acme.localhost';

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }]);
    app = await buildApp(
      { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient },
      loadConfig(testEnv(fleet.env)),
    );
  });
  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
  });

  const db = () => tenantDbs(fleet, 'acme').aplt;
  const create = () =>
    app.inject({
      method: 'POST',
      url: '/store/aplt/quotations',
      // Through the proxy as a signed-in access user: the audit names who it was.
      headers: viaProxy(host, { sub: 'flow@acme.test', reason: 'session' }),
      payload: {
        customer_email: 'lead@example.com',
        lines: [{ line_type: 'product', description: 'Item', quantity: 2, unit_price: '3.00' }],
      },
    });

  it('rolls the quotation back when its audit row fails, and keeps both when it succeeds', async () => {
    await sql`
      CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit store unavailable'; END $$;
      CREATE TRIGGER refuse_audit BEFORE INSERT ON aplt_audit_log FOR EACH ROW EXECUTE FUNCTION refuse_audit();
    `.execute(db());
    const failed = await create();
    expect(failed.statusCode).toBe(500);
    const count = async (table: string) =>
      Number(
        (await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db())).rows[0]!.n,
      );
    expect(await count('aplt_quotation_headers')).toBe(0);
    expect(await count('aplt_quotation_lines')).toBe(0);

    await sql`DROP TRIGGER refuse_audit ON aplt_audit_log`.execute(db());
    const ok = await create();
    expect(ok.statusCode).toBe(201);
    expect(await count('aplt_quotation_headers')).toBe(1);
    expect(await count('aplt_audit_log')).toBe(1);
    const audit = await sql<{
      actor: string;
      actor_type: string;
    }>`select actor, actor_type from aplt_audit_log`.execute(db());
    expect(audit.rows).toEqual([{ actor: 'flow@acme.test', actor_type: 'automation' }]);
  });
});
