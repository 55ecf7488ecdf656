import { type ApltDatabase, type CommerceDatabase, sql } from '@aplt/db';
import { createTestFleet, type TestFleet } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '../../../deploy/fleet/seeds/catalog';
import type { SeedContext } from '../../../deploy/fleet/seeds/index';

describe('demo catalog seed step', () => {
  let fleet: TestFleet;
  const lines: string[] = [];

  beforeAll(async () => {
    fleet = await createTestFleet([
      { id: 'master', kind: 'master' },
      { id: 'pim', kind: 'pim' },
      { id: 'acme' },
    ]);
  });
  afterAll(async () => {
    await fleet?.cleanup();
  });

  it('imports the sample feeds, updates every tenant and syncs their commerce catalog; a second run changes nothing', async () => {
    const ctx = {
      registry: fleet.registry,
      databases: fleet.databases,
      log: (l: string) => lines.push(l),
      notes: [],
    } as unknown as SeedContext;
    await seedCatalog(ctx);
    const acme = (await fleet.registry.get('acme'))!;
    const count = async () => ({
      aplt: (
        await sql<{ n: number }>`SELECT count(*)::int AS n FROM aplt_products`.execute(
          fleet.databases.aplt<ApltDatabase>(acme),
        )
      ).rows[0]?.n,
      commerce: (
        await sql<{ n: number }>`SELECT count(*)::int AS n FROM product WHERE deleted_at IS NULL`.execute(
          fleet.databases.commerce<CommerceDatabase>(acme),
        )
      ).rows[0]?.n,
    });
    const first = await count();
    expect(first.aplt).toBeGreaterThanOrEqual(8);
    expect(first.commerce).toBeGreaterThanOrEqual(6);
    // Every supplier's sample feeds are wired and imported: each has sellable products in the shop.
    const perSupplier = await sql<{
      supplier_code: string;
      n: number;
    }>`SELECT supplier_code, count(*)::int AS n
      FROM aplt_products WHERE is_sellable GROUP BY supplier_code ORDER BY supplier_code`.execute(
      fleet.databases.aplt<ApltDatabase>(acme),
    );
    expect(perSupplier.rows.map((r) => r.supplier_code)).toEqual([
      '01',
      '02',
      '03',
      '04',
      '05',
      '06',
      '07',
      '09',
    ]);
    await seedCatalog(ctx);
    expect(await count()).toEqual(first);
    const titles = await sql<{ title: string }>`SELECT title FROM product ORDER BY external_id`.execute(
      fleet.databases.commerce<CommerceDatabase>(acme),
    );
    expect(titles.rows.map((r) => r.title)).toContain('Blauwe balpen Classic');
    expect(lines.at(-1)).toMatch(/tenant update into 2 tenants/);
  });
});
