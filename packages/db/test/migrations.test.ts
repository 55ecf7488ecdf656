import {
  type ApltDatabase,
  createPgDb,
  type DatabaseKind,
  dropPgDatabase,
  ensurePgDatabase,
  isCheckViolation,
  isForeignKeyViolation,
  migrateToLatest,
  migrationsOf,
  sql,
} from '@aplt/db';
import {
  createTestMysqlDatabase,
  createTestPgDatabase,
  testServers,
  uniqueName,
  waitForLockHolder,
  waitForLockWaiter,
} from '../testing';
import { type Kysely, Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';

describe('migrations', () => {
  it.each(['control', 'access', 'commerce', 'aplt'] as const)(
    '%s: apply to an empty database, then again as a no-op',
    async (kind: DatabaseKind) => {
      const { pg } = testServers();
      const name = uniqueName(`m_${kind}`);
      await ensurePgDatabase(pg, name);
      const db = createPgDb({ ...pg, database: name }, { max: 1 });
      try {
        const first = await migrateToLatest(db, kind);
        expect(first).toEqual(Object.keys(migrationsOf(kind)).sort());
        expect(await migrateToLatest(db, kind)).toEqual([]);
      } finally {
        await db.destroy();
        await dropPgDatabase(pg, name);
      }
    },
  );

  it('portal (MariaDB): applies once, then is a no-op', async () => {
    const portal = await createTestMysqlDatabase();
    try {
      expect(await migrateToLatest(portal.db, 'portal')).toEqual([]);
      const tables = await sql<{
        t: string;
      }>`select table_name as t from information_schema.tables where table_schema = ${portal.name}`.execute(
        portal.db,
      );
      expect(tables.rows.map((r) => r.t)).toEqual(
        expect.arrayContaining(['users', 'portal_sessions', 'tickets']),
      );
    } finally {
      await portal.drop();
    }
  });
});

describe('aplt integrity rules enforced by the database', () => {
  it('has every one of the 47 tables of spec 1, plus aplt_stock and aplt_connector_sync', async () => {
    const aplt = await createTestPgDatabase('aplt');
    try {
      const rows = await sql<{
        t: string;
      }>`select table_name as t from information_schema.tables where table_schema = 'public'`.execute(
        aplt.db,
      );
      const tables = new Set(rows.rows.map((r) => r.t));
      const spec =
        `quotation_headers quotation_lines quotation_line_setup_costs order_headers order_lines invoice_headers
        invoice_lines invoice_vat_summary document_relations opstartkosten products techniques technique_pricing categories
        category_mappings colors suppliers discount_groups cms_settings cms_pages cms_menu_items cms_menus cms_footer_sections
        cms_footer_links brands settings number_sequences payment_terms vat_codes tenants payments payment_allocations
        journal_entries journal_lines ledger_accounts customers access_requests 3d_config 3d_products 3d_products_config
        audit_log deployment_logs logo_cache migrations modules tenant_modules releases stock connector_sync`
          .split(/\s+/)
          .map((t) => `aplt_${t}`);
      expect(spec).toHaveLength(49);
      expect(spec.filter((t) => !tables.has(t))).toEqual([]);
    } finally {
      await aplt.drop();
    }
  });

  it('refuses a stock row for an unknown SKU and accepts one for a known SKU', async () => {
    const aplt = await createTestPgDatabase('aplt');
    try {
      const err = await sql`insert into aplt_stock (sku, quantity) values ('999-99.999', 5)`
        .execute(aplt.db)
        .catch((e: unknown) => e);
      expect(isForeignKeyViolation(err)).toBe(true);

      await sql`insert into aplt_suppliers (code, name) values ('01', 'Supplier one')`.execute(aplt.db);
      await sql`insert into aplt_products (sku, supplier_code, name_nl) values ('100-01', '01', 'Pen')`.execute(
        aplt.db,
      );
      await sql`insert into aplt_stock (sku, quantity) values ('100-01', 5)`.execute(aplt.db);
      const stock = await sql<{
        quantity: number;
      }>`select quantity from aplt_stock where sku = '100-01'`.execute(aplt.db);
      expect(stock.rows).toEqual([{ quantity: 5 }]);
    } finally {
      await aplt.drop();
    }
  });

  it('keeps the SKU registry in step with products and variants (insert, SKU change, delete, truncate)', async () => {
    const aplt = await createTestPgDatabase('aplt');
    const db = aplt.db;
    const registry = async () =>
      (await sql<{ sku: string }>`select sku from aplt_skus order by sku`.execute(db)).rows.map((r) => r.sku);
    try {
      await sql`insert into aplt_suppliers (code, name) values ('01', 'Supplier one')`.execute(db);
      // Several rows in one statement: registered together by the statement trigger.
      await sql`insert into aplt_products (sku, supplier_code, name_nl) values ('100-01', '01', 'Pen'), ('200-01', '01', 'Mok')`.execute(
        db,
      );
      await sql`insert into aplt_product_variants (product_id, sku)
        select id, sku || '.001' from aplt_products union all select id, sku || '.002' from aplt_products`.execute(
        db,
      );
      expect(await registry()).toEqual([
        '100-01',
        '100-01.001',
        '100-01.002',
        '200-01',
        '200-01.001',
        '200-01.002',
      ]);
      const dup =
        await sql`insert into aplt_product_variants (product_id, sku) select id, '200-01' from aplt_products where sku = '100-01'`
          .execute(db)
          .catch((e: unknown) => e);
      expect((dup as { code?: string }).code).toBe('23505'); // a SKU is unique across products and variants

      await sql`update aplt_products set sku = '101-01' where sku = '100-01'`.execute(db);
      await sql`update aplt_product_variants set sku = '101-01.001' where sku = '100-01.001'`.execute(db);
      await sql`insert into aplt_stock (sku, quantity) values ('101-01.001', 5), ('200-01', 7), ('200-01.002', 9)`.execute(
        db,
      );
      expect(await registry()).toEqual([
        '100-01.002',
        '101-01',
        '101-01.001',
        '200-01',
        '200-01.001',
        '200-01.002',
      ]);

      // A variant moved to another product: its registry row follows (found by its SKU).
      await sql`update aplt_product_variants set product_id = (select id from aplt_products where sku = '200-01')
        where sku = '100-01.002'`.execute(db);
      const moved = await sql<{ product_sku: string }>`select p.sku as product_sku from aplt_skus s
        join aplt_products p on p.id = s.product_id where s.sku = '100-01.002'`.execute(db);
      expect(moved.rows).toEqual([{ product_sku: '200-01' }]);

      await sql`delete from aplt_product_variants where sku = '200-01.002'`.execute(db);
      await sql`delete from aplt_products where sku = '101-01'`.execute(db);
      expect(await registry()).toEqual(['100-01.002', '200-01', '200-01.001']);
      const stock = await sql<{ sku: string }>`select sku from aplt_stock order by sku`.execute(db);
      expect(stock.rows).toEqual([{ sku: '200-01' }]);

      await sql`truncate aplt_products cascade`.execute(db);
      expect(await registry()).toEqual([]);
    } finally {
      await aplt.drop();
    }
  });

  it('keeps price tiers to existing products and variants (refused, deleted with them, variant key kept)', async () => {
    const aplt = await createTestPgDatabase('aplt');
    const db = aplt.db;
    const tiers = async () =>
      (
        await sql<{ t: string }>`select p.sku || coalesce('/' || v.sku, '') || ':' || x.min_quantity as t
          from aplt_product_prices x join aplt_products p on p.id = x.product_id
          left join aplt_product_variants v on v.id = x.variant_id order by 1`.execute(db)
      ).rows.map((r) => r.t);
    const refused = (q: Promise<unknown>) =>
      q.then(
        () => 'accepted',
        (e: unknown) => isForeignKeyViolation(e),
      );
    try {
      await sql`insert into aplt_suppliers (code, name) values ('01', 'Supplier one')`.execute(db);
      await sql`insert into aplt_products (sku, supplier_code, name_nl) values ('100-01', '01', 'Pen'), ('200-01', '01', 'Mok')`.execute(
        db,
      );
      await sql`insert into aplt_product_variants (product_id, sku) select id, sku || '.001' from aplt_products`.execute(
        db,
      );
      const ids = Object.fromEntries(
        (
          await sql<{
            sku: string;
            id: string;
            product_id: string;
          }>`select sku, id, id as product_id from aplt_products
            union all select sku, id, product_id from aplt_product_variants`.execute(db)
        ).rows.map((r) => [r.sku, r]),
      );
      const [p1, p2, v1, v2] = [ids['100-01']!, ids['200-01']!, ids['100-01.001']!, ids['200-01.001']!];
      // Many rows in one statement, product-wide and per variant: checked together.
      await sql`insert into aplt_product_prices (product_id, variant_id, min_quantity, price)
        values (${p1.id}, null, 1, 2), (${p1.id}, ${v1.id}, 1, 2), (${p1.id}, ${v1.id}, 100, 1.5),
          (${p2.id}, ${v2.id}, 1, 3)`.execute(db);
      expect(await tiers()).toEqual([
        '100-01/100-01.001:1',
        '100-01/100-01.001:100',
        '100-01:1',
        '200-01/200-01.001:1',
      ]);

      // A statement with one bad row among good ones is refused whole, as a foreign key refuses it.
      expect(
        await refused(
          sql`insert into aplt_product_prices (product_id, variant_id, min_quantity, price)
            values (${p2.id}, null, 1, 3), (999999, null, 1, 3)`.execute(db),
        ),
      ).toBe(true);
      expect(
        await refused(
          sql`insert into aplt_product_prices (product_id, variant_id, min_quantity, price) values (${p2.id}, 999999, 1, 3)`.execute(
            db,
          ),
        ),
      ).toBe(true);
      // A variant of another product.
      expect(
        await refused(
          sql`insert into aplt_product_prices (product_id, variant_id, min_quantity, price) values (${p2.id}, ${v1.id}, 5, 3)`.execute(
            db,
          ),
        ),
      ).toBe(true);
      expect(
        await refused(
          sql`update aplt_product_prices set variant_id = ${v1.id} where product_id = ${p2.id}`.execute(db),
        ),
      ).toBe(true);
      expect(
        await refused(
          sql`update aplt_product_variants set product_id = ${p2.id} where id = ${v1.id}`.execute(db),
        ),
      ).toBe(true);
      // A price change is not a key change: no check, accepted.
      await sql`update aplt_product_prices set price = 2.5 where product_id = ${p1.id} and min_quantity = 1`.execute(
        db,
      );
      expect(await tiers()).toHaveLength(4);

      await sql`delete from aplt_product_variants where id = ${v1.id}`.execute(db);
      expect(await tiers()).toEqual(['100-01:1', '200-01/200-01.001:1']);
      await sql`delete from aplt_products where id = ${p1.id}`.execute(db);
      expect(await tiers()).toEqual(['200-01/200-01.001:1']);
      await sql`insert into aplt_product_prices (product_id, variant_id, min_quantity, price) values (${p2.id}, null, 1, 3)`.execute(
        db,
      );
      await sql`truncate aplt_product_variants cascade`.execute(db);
      expect(await tiers()).toEqual(['200-01:1']);
      await sql`truncate aplt_products cascade`.execute(db);
      expect(await tiers()).toEqual([]);
      // A TRUNCATE naming the tiers too (they are open in that statement).
      await sql`insert into aplt_products (sku, supplier_code, name_nl) values ('300-01', '01', 'Fles')`.execute(
        db,
      );
      await sql`insert into aplt_product_prices (product_id, min_quantity, price) select id, 1, 1 from aplt_products`.execute(
        db,
      );
      await sql`truncate aplt_product_prices, aplt_products cascade`.execute(db);
      expect(await tiers()).toEqual([]);
    } finally {
      await aplt.drop();
    }
  });

  it('price tiers and a concurrent delete of their variant never leave an orphan, whichever comes first', async () => {
    const aplt = await createTestPgDatabase('aplt');
    const other = createPgDb<ApltDatabase>(aplt.address, { max: 1 });
    const db = aplt.db;
    const setup = async () => {
      await sql`truncate aplt_products cascade`.execute(db);
      await sql`insert into aplt_products (sku, supplier_code, name_nl) values ('100-01', '01', 'Pen')`.execute(
        db,
      );
      await sql`insert into aplt_product_variants (product_id, sku) select id, '100-01.001' from aplt_products`.execute(
        db,
      );
      return (
        await sql<{
          id: string;
          product_id: string;
        }>`select id, product_id from aplt_product_variants`.execute(db)
      ).rows[0]!;
    };
    const orphans = async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from aplt_product_prices x
          where not exists (select 1 from aplt_product_variants v where v.id = x.variant_id)`.execute(db)
      ).rows[0]!.n;
    const insertTier = (trx: Kysely<ApltDatabase>, v: { id: string; product_id: string }) =>
      sql`insert into aplt_product_prices (product_id, variant_id, min_quantity, price)
        select ${v.product_id}, ${v.id}, q, 1 from generate_series(1, 3) q`.execute(trx);
    // A failed expectation must not leave a transaction open (the pools would not close).
    let release = () => {};
    let commit = () => {};
    try {
      await sql`insert into aplt_suppliers (code, name) values ('01', 'Supplier one')`.execute(db);

      // The delete first, not yet committed: the tiers wait for it, then are refused.
      let v = await setup();
      const held = new Promise<void>((r) => (release = r));
      const deleting = other.transaction().execute(async (trx) => {
        await sql`delete from aplt_product_variants where id = ${v.id}`.execute(trx);
        await held;
      });
      await waitForLockHolder(db, 'delete from aplt_product_variants');
      const inserting = db
        .transaction()
        .execute((trx) => insertTier(trx, v))
        .then(
          () => 'accepted',
          (e: unknown) => isForeignKeyViolation(e),
        );
      await waitForLockWaiter(db);
      release();
      await deleting;
      expect(await inserting).toBe(true);
      expect(await orphans()).toBe(0);

      // The tiers first, not yet committed: the delete waits for them, then takes them along.
      v = await setup();
      const open = new Promise<void>((r) => (commit = r));
      const inserted = db.transaction().execute(async (trx) => {
        await insertTier(trx, v);
        await open;
      });
      await waitForLockHolder(db, 'insert into aplt_product_prices');
      const deleted = sql`delete from aplt_product_variants where id = ${v.id}`.execute(other);
      await waitForLockWaiter(db);
      commit();
      await inserted;
      await deleted;
      expect(await orphans()).toBe(0);
      expect(
        (await sql<{ n: number }>`select count(*)::int as n from aplt_product_prices`.execute(db)).rows[0]!.n,
      ).toBe(0);
    } finally {
      release();
      commit();
      await other.destroy();
      await aplt.drop();
    }
  });

  it('keeps position techniques to existing positions and techniques (refused, deleted with them, keys kept)', async () => {
    const aplt = await createTestPgDatabase('aplt');
    const db = aplt.db;
    const links = async () =>
      (
        await sql<{ t: string }>`select p.sku || '/' || pp.position_code || '/' || t.code as t
          from aplt_product_techniques x join aplt_products p on p.id = x.product_id
          join aplt_print_positions pp on pp.id = x.print_position_id join aplt_techniques t on t.id = x.technique_id
          order by 1`.execute(db)
      ).rows.map((r) => r.t);
    const refused = (q: Promise<unknown>) =>
      q.then(
        () => 'accepted',
        (e: unknown) => isForeignKeyViolation(e),
      );
    const id = async (q: string) => (await sql<{ id: string }>`${sql.raw(q)}`.execute(db)).rows[0]!.id;
    try {
      await sql`insert into aplt_suppliers (code, name) values ('01', 'Supplier one')`.execute(db);
      await sql`insert into aplt_products (sku, supplier_code, name_nl) values ('100-01', '01', 'Pen'), ('200-01', '01', 'Mok')`.execute(
        db,
      );
      await sql`insert into aplt_techniques (code, name_nl) values ('01-T1', 'Tampondruk'), ('01-T2', 'Zeefdruk')`.execute(
        db,
      );
      await sql`insert into aplt_print_positions (product_id, position_code) select id, c from aplt_products, (values ('FRONT'), ('BACK')) v(c)`.execute(
        db,
      );
      const [p1, p2] = [
        await id(`select id from aplt_products where sku = '100-01'`),
        await id(`select id from aplt_products where sku = '200-01'`),
      ];
      const [t1, t2] = [
        await id(`select id from aplt_techniques where code = '01-T1'`),
        await id(`select id from aplt_techniques where code = '01-T2'`),
      ];
      const pos = (product: string, code: string) =>
        id(`select id from aplt_print_positions where product_id = ${product} and position_code = '${code}'`);
      const [f1, b1, f2] = [await pos(p1, 'FRONT'), await pos(p1, 'BACK'), await pos(p2, 'FRONT')];
      await sql`insert into aplt_product_techniques (product_id, technique_id, print_position_id)
        values (${p1}, ${t1}, ${f1}), (${p1}, ${t2}, ${f1}), (${p1}, ${t1}, ${b1}), (${p2}, ${t2}, ${f2})`.execute(
        db,
      );
      expect(await links()).toEqual([
        '100-01/BACK/01-T1',
        '100-01/FRONT/01-T1',
        '100-01/FRONT/01-T2',
        '200-01/FRONT/01-T2',
      ]);

      const insert = (product: string, technique: string, position: string) =>
        sql`insert into aplt_product_techniques (product_id, technique_id, print_position_id)
          values (${p2}, ${t1}, ${f2}), (${product}, ${technique}, ${position})`.execute(db);
      expect(await refused(insert(p2, '999999', f2))).toBe(true); // unknown technique
      expect(await refused(insert(p2, t1, '999999'))).toBe(true); // unknown position
      expect(await refused(insert(p2, t2, b1))).toBe(true); // a position of another product
      expect(
        await refused(
          sql`update aplt_product_techniques set print_position_id = ${b1} where product_id = ${p2}`.execute(
            db,
          ),
        ),
      ).toBe(true);
      expect(
        await refused(
          sql`update aplt_print_positions set product_id = ${p2}, position_code = 'SIDE' where id = ${f1}`.execute(
            db,
          ),
        ),
      ).toBe(true);
      await sql`update aplt_product_techniques set max_colours = 2 where product_id = ${p1}`.execute(db);
      expect(await links()).toHaveLength(4);

      await sql`delete from aplt_techniques where id = ${t2}`.execute(db);
      expect(await links()).toEqual(['100-01/BACK/01-T1', '100-01/FRONT/01-T1']);
      await sql`delete from aplt_print_positions where id = ${b1}`.execute(db);
      expect(await links()).toEqual(['100-01/FRONT/01-T1']);
      await sql`insert into aplt_product_techniques (product_id, technique_id, print_position_id) values (${p2}, ${t1}, ${f2})`.execute(
        db,
      );
      await sql`delete from aplt_products where id = ${p1}`.execute(db);
      expect(await links()).toEqual(['200-01/FRONT/01-T1']);
      await sql`truncate aplt_products cascade`.execute(db);
      expect(await links()).toEqual([]);
      // A TRUNCATE naming the position techniques too (they are open in that statement).
      await sql`insert into aplt_products (sku, supplier_code, name_nl) values ('300-01', '01', 'Fles')`.execute(
        db,
      );
      await sql`insert into aplt_print_positions (product_id, position_code) select id, 'FRONT' from aplt_products`.execute(
        db,
      );
      await sql`insert into aplt_product_techniques (product_id, technique_id, print_position_id)
        select pp.product_id, t.id, pp.id from aplt_print_positions pp, aplt_techniques t`.execute(db);
      expect(await links()).toEqual(['300-01/FRONT/01-T1']);
      await sql`truncate aplt_product_techniques, aplt_print_positions, aplt_techniques cascade`.execute(db);
      expect(await links()).toEqual([]);
    } finally {
      await aplt.drop();
    }
  });

  it('position techniques and a concurrent delete of their position never leave an orphan', async () => {
    const aplt = await createTestPgDatabase('aplt');
    const other = createPgDb<ApltDatabase>(aplt.address, { max: 1 });
    const db = aplt.db;
    let release = () => {};
    try {
      await sql`insert into aplt_suppliers (code, name) values ('01', 'Supplier one')`.execute(db);
      await sql`insert into aplt_products (sku, supplier_code, name_nl) values ('100-01', '01', 'Pen')`.execute(
        db,
      );
      await sql`insert into aplt_techniques (code, name_nl) values ('01-T1', 'Tampondruk')`.execute(db);
      await sql`insert into aplt_print_positions (product_id, position_code) select id, 'FRONT' from aplt_products`.execute(
        db,
      );
      const held = new Promise<void>((r) => (release = r));
      const deleting = other.transaction().execute(async (trx) => {
        await sql`delete from aplt_print_positions`.execute(trx);
        await held;
      });
      await waitForLockHolder(db, 'delete from aplt_print_positions');
      const inserting = sql`insert into aplt_product_techniques (product_id, technique_id, print_position_id)
        select pp.product_id, t.id, pp.id from aplt_print_positions pp, aplt_techniques t`
        .execute(db)
        .then(
          () => 'accepted',
          (e: unknown) => isForeignKeyViolation(e),
        );
      await waitForLockWaiter(db);
      release();
      await deleting;
      expect(await inserting).toBe(true);
      expect(
        (await sql<{ n: number }>`select count(*)::int as n from aplt_product_techniques`.execute(db))
          .rows[0]!.n,
      ).toBe(0);
    } finally {
      release();
      await other.destroy();
      await aplt.drop();
    }
  });

  it('re-indexes a product for search only when the text of its document changes', async () => {
    const aplt = await createTestPgDatabase('aplt');
    const db = aplt.db;
    const refresh = async (q: Kysely<ApltDatabase> = db) =>
      (await sql<{ n: number }>`select aplt_refresh_product_search() as n`.execute(q)).rows[0]!.n;
    const state = async () =>
      (
        await sql<{ sku: string; source: string; seen: string; text: string }>`
          select p.sku, p.search_source_at::text as source, s.source_updated_at::text as seen, s.search_text as text
          from aplt_products p join aplt_product_search s on s.product_id = p.id order by p.sku`.execute(db)
      ).rows;
    try {
      await sql`insert into aplt_suppliers (code, name) values ('01', 'Supplier one')`.execute(db);
      await sql`insert into aplt_products (sku, supplier_code, name_nl) values ('100-01', '01', 'Pen'), ('200-01', '01', 'Mok')`.execute(
        db,
      );
      expect(await refresh()).toBe(2);
      const indexed = await state();
      expect(indexed.map((r) => r.seen)).toEqual(indexed.map((r) => r.source));

      // What a price run writes, and a form saved with the same name: no candidate for the refresh.
      await sql`update aplt_products set retail_price_100 = 1.25, purchase_price = 0.8`.execute(db);
      await sql`update aplt_products set name_nl = 'Pen', brand = null where sku = '100-01'`.execute(db);
      expect(await refresh()).toBe(0);
      expect(await state()).toEqual(indexed);

      // Renamed twice in one transaction with a refresh after each: both renames are seen.
      await db.transaction().execute(async (trx) => {
        await sql`update aplt_products set name_nl = 'Balpen' where sku = '100-01'`.execute(trx);
        expect(await refresh(trx)).toBe(1);
        await sql`update aplt_products set name_nl = 'Vulpen' where sku = '100-01'`.execute(trx);
        expect(await refresh(trx)).toBe(1);
      });
      const renamed = await state();
      expect(renamed.map((r) => r.text.trim())).toEqual(['100-01 vulpen', '200-01 mok']);
      expect(renamed[0]!.seen).toBe(renamed[0]!.source);
      expect(renamed[0]!.source > indexed[0]!.source).toBe(true);
      expect(renamed[1]).toEqual(indexed[1]);
    } finally {
      await aplt.drop();
    }
  });

  it('clears a products-feed fingerprint when anyone but the products run changes the product or its variants', async () => {
    const aplt = await createTestPgDatabase('aplt');
    const db = aplt.db;
    const fp = '00000000-0000-4000-8000-000000000001';
    const fingerprinted = async () =>
      (
        await sql<{
          sku: string;
        }>`select sku from aplt_products where feed_fingerprint is not null order by sku`.execute(db)
      ).rows.map((r) => r.sku);
    const stamp = () => sql`update aplt_products set feed_fingerprint = ${fp}::uuid`.execute(db);
    try {
      await sql`insert into aplt_suppliers (code, name) values ('01', 'Supplier one')`.execute(db);
      await sql`insert into aplt_products (sku, supplier_code, name_nl, feed_fingerprint)
        values ('100-01', '01', 'Pen', ${fp}::uuid), ('200-01', '01', 'Mok', ${fp}::uuid)`.execute(db);
      await sql`insert into aplt_product_variants (product_id, sku) select id, sku || '.001' from aplt_products`.execute(
        db,
      );
      expect(await fingerprinted()).toEqual([]); // the variants were written by someone else
      await stamp();
      // Columns the feed does not give, or a fed column set to its own value: kept.
      await sql`update aplt_products set retail_price_100 = 2, name_nl = 'Pen' where sku = '100-01'`.execute(
        db,
      );
      expect(await fingerprinted()).toEqual(['100-01', '200-01']);
      await sql`update aplt_products set images = '["a.jpg"]' where sku = '100-01'`.execute(db);
      expect(await fingerprinted()).toEqual(['200-01']);
      await sql`update aplt_product_variants set color_name = 'Rood' where sku = '200-01.001'`.execute(db);
      expect(await fingerprinted()).toEqual([]);
      // The run itself: a new fingerprint with the new values, then its variants.
      await db.transaction().execute(async (trx) => {
        await sql`select set_config('aplt.feed_fingerprints', 'writing', true)`.execute(trx);
        await sql`update aplt_products set name_nl = name_nl || '!', feed_fingerprint = ${fp}::uuid`.execute(
          trx,
        );
        await sql`update aplt_product_variants set color_name = 'Blauw'`.execute(trx);
        await sql`insert into aplt_product_variants (product_id, sku) select id, sku || '.002' from aplt_products`.execute(
          trx,
        );
      });
      expect(await fingerprinted()).toEqual(['100-01', '200-01']);
      await sql`delete from aplt_product_variants where sku = '100-01.002'`.execute(db);
      expect(await fingerprinted()).toEqual(['200-01']);
      await sql`truncate aplt_product_variants cascade`.execute(db);
      expect(await fingerprinted()).toEqual([]);
    } finally {
      await aplt.drop();
    }
  });

  it('refuses supplier codes that are not two digits', async () => {
    const aplt = await createTestPgDatabase('aplt');
    try {
      for (const code of ['1', 'AB', '123']) {
        const err = await sql`insert into aplt_suppliers (code, name) values (${code}, 'x')`
          .execute(aplt.db)
          .catch((e: unknown) => e);
        expect(isCheckViolation(err) || (err as { code?: string }).code === '22001').toBe(true);
      }
    } finally {
      await aplt.drop();
    }
  });
});

describe('aplt 0517: search documents from before search_source_at', () => {
  it('keeps the documents that are current, without rebuilding them', async () => {
    const { pg } = testServers();
    const name = uniqueName('m_0517');
    await ensurePgDatabase(pg, name);
    const db = createPgDb({ ...pg, database: name }, { max: 1 });
    try {
      const before = Object.fromEntries(Object.entries(migrationsOf('aplt')).filter(([n]) => n < '0517'));
      const migrated = await new Migrator({
        db,
        provider: { getMigrations: async () => before },
        migrationTableName: 'kysely_migration',
        migrationLockTableName: 'kysely_migration_lock',
        allowUnorderedMigrations: true,
      }).migrateToLatest();
      expect(migrated.error).toBeUndefined();
      await sql`insert into aplt_suppliers (code, name) values ('01', 'Supplier one')`.execute(db);
      await sql`insert into aplt_products (sku, supplier_code, name_nl) values ('100-01', '01', 'Pen'), ('200-01', '01', 'Mok')`.execute(
        db,
      );
      await sql`select aplt_refresh_product_search()`.execute(db);
      // One document went stale before the upgrade (a rename nobody refreshed yet).
      await sql`update aplt_products set name_nl = 'Vaas' where sku = '200-01'`.execute(db);
      const indexedAt = async (current = sql`s.source_updated_at = p.search_source_at`) =>
        (
          await sql<{ sku: string; at: string; text: string; current: boolean }>`
            select p.sku, s.indexed_at::text as at, trim(s.search_text) as text, ${current} as current
            from aplt_products p join aplt_product_search s on s.product_id = p.id order by p.sku`.execute(db)
        ).rows;
      const old = await indexedAt(sql`null`);

      expect(await migrateToLatest(db, 'aplt')).toContain('0517_catalog_search_source_changes');
      const now = await indexedAt();
      expect(now[0]).toMatchObject({ at: old[0]!.at, text: '100-01 pen', current: true });
      expect(now[1]).toMatchObject({ text: '200-01 vaas', current: true });
      expect(now[1]!.at > old[1]!.at).toBe(true);
    } finally {
      await db.destroy();
      await dropPgDatabase(pg, name);
    }
  });
});

describe('aplt 0940: partner sync rows from before the idempotency keys', () => {
  it('gives each keyless row its own stable key and then requires one', async () => {
    const { pg } = testServers();
    const name = uniqueName('m_0940');
    await ensurePgDatabase(pg, name);
    const db = createPgDb({ ...pg, database: name }, { max: 1 });
    try {
      // The database as it was before 0940, with two rows the agent synced before 0920.
      const before = Object.fromEntries(Object.entries(migrationsOf('aplt')).filter(([n]) => n < '0940'));
      const migrated = await new Migrator({
        db,
        provider: { getMigrations: async () => before },
        migrationTableName: 'kysely_migration',
        migrationLockTableName: 'kysely_migration_lock',
        allowUnorderedMigrations: true,
      }).migrateToLatest();
      expect(migrated.error).toBeUndefined();
      await sql`INSERT INTO partner_order_sync (source_reference, status, synced_via)
                VALUES ('ORD-1', 'pushed', 'agent'), ('ORD-2', 'pushed', 'n8n')`.execute(db);

      // 0940 and whatever came after it.
      expect((await migrateToLatest(db, 'aplt'))[0]).toBe('0940_partner_sync_keys_required');
      const rows = await sql<{ id: number; idempotency_key: string }>`
        SELECT id, idempotency_key FROM partner_order_sync ORDER BY id`.execute(db);
      expect(rows.rows.map((r) => r.idempotency_key)).toEqual(rows.rows.map((r) => `legacy-${r.id}`));
      await expect(
        sql`INSERT INTO partner_order_sync (source_reference, idempotency_key) VALUES ('ORD-3', NULL)`.execute(
          db,
        ),
      ).rejects.toMatchObject({ code: '23502' });
    } finally {
      await db.destroy();
      await dropPgDatabase(pg, name);
    }
  });
});
