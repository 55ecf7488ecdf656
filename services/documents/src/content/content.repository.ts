import { type ApltDatabase, type Kysely, sql } from '@aplt/db';
import { containsPattern, type PageQuery } from '../shared/paging';
import type { translationSources } from './content.schemas';

/*
 * Read-only queries of the content tables. Each list answers one page and the count of matching
 * rows; children (menu items, footer links) come with their page in one extra query.
 */

type Page = PageQuery;

async function paged<T>(
  rowsQuery: { execute(): Promise<T[]> },
  countQuery: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> },
) {
  const [rows, total] = await Promise.all([rowsQuery.execute(), countQuery.executeTakeFirstOrThrow()]);
  return { rows, count: Number(total.n) };
}

export async function listCmsSettings(db: Kysely<ApltDatabase>, f: Page & { brand_id?: number; q?: string }) {
  let q = db.selectFrom('aplt_cms_settings as s').innerJoin('aplt_brands as b', 'b.id', 's.brand_id');
  if (f.brand_id) q = q.where('s.brand_id', '=', f.brand_id);
  if (f.q) {
    const p = containsPattern(f.q);
    q = q.where((eb) => eb.or([eb('s.key', 'ilike', p), eb('s.value', 'ilike', p)]));
  }
  return paged(
    q
      .select([
        's.id',
        's.brand_id',
        'b.code as brand_code',
        's.key',
        's.value',
        's.description',
        's.updated_at',
      ])
      .orderBy('b.code')
      .orderBy('s.key')
      .limit(f.limit)
      .offset(f.offset),
    q.select((eb) => eb.fn.countAll<number>().as('n')),
  );
}

export async function listFooterSections(db: Kysely<ApltDatabase>, f: Page & { brand_id?: number }) {
  let q = db.selectFrom('aplt_cms_footer_sections as s').innerJoin('aplt_brands as b', 'b.id', 's.brand_id');
  if (f.brand_id) q = q.where('s.brand_id', '=', f.brand_id);
  return paged(
    q
      .select([
        's.id',
        's.brand_id',
        'b.code as brand_code',
        's.title_nl',
        's.title_en',
        's.title_de',
        's.sort_order',
        's.is_active',
        's.updated_at',
      ])
      .orderBy('b.code')
      .orderBy('s.sort_order')
      .orderBy('s.id')
      .limit(f.limit)
      .offset(f.offset),
    q.select((eb) => eb.fn.countAll<number>().as('n')),
  );
}

export async function footerLinks(db: Kysely<ApltDatabase>, sectionIds: number[]) {
  if (!sectionIds.length) return [];
  return db
    .selectFrom('aplt_cms_footer_links')
    .select([
      'id',
      'section_id',
      'label_nl',
      'label_en',
      'label_de',
      'url',
      'page_id',
      'open_in_new_tab',
      'sort_order',
      'is_active',
    ])
    .where('section_id', 'in', sectionIds)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

export async function listModules(db: Kysely<ApltDatabase>, f: Page & { q?: string }) {
  let q = db.selectFrom('aplt_modules as m');
  if (f.q) {
    const p = containsPattern(f.q);
    q = q.where((eb) =>
      eb.or([eb('m.code', 'ilike', p), eb('m.name', 'ilike', p), eb('m.feature_key', 'ilike', p)]),
    );
  }
  return paged(
    q
      .select([
        'm.id',
        'm.code',
        'm.name',
        'm.description',
        'm.feature_key',
        'm.version',
        'm.is_core',
        'm.is_active',
        'm.updated_at',
        sql<number>`(SELECT count(*) FROM aplt_tenant_modules t WHERE t.module_id = m.id AND t.is_enabled)::int`.as(
          'enabled_count',
        ),
      ])
      .orderBy('m.code')
      .limit(f.limit)
      .offset(f.offset),
    q.select((eb) => eb.fn.countAll<number>().as('n')),
  );
}

export async function listBrands(db: Kysely<ApltDatabase>, f: Page & { q?: string }) {
  let q = db.selectFrom('aplt_brands as b');
  if (f.q) {
    const p = containsPattern(f.q);
    q = q.where((eb) =>
      eb.or([eb('b.code', 'ilike', p), eb('b.name', 'ilike', p), eb('b.domain', 'ilike', p)]),
    );
  }
  return paged(
    q
      .select([
        'b.id',
        'b.code',
        'b.name',
        'b.domain',
        'b.logo_url',
        'b.primary_color',
        'b.default_language',
        'b.is_default',
        'b.is_active',
        'b.updated_at',
        sql<number>`(SELECT count(*) FROM aplt_cms_settings x WHERE x.brand_id = b.id)::int`.as(
          'settings_count',
        ),
        sql<number>`(SELECT count(*) FROM aplt_cms_pages x WHERE x.brand_id = b.id)::int`.as('pages_count'),
        sql<number>`(SELECT count(*) FROM aplt_cms_menus x WHERE x.brand_id = b.id)::int`.as('menus_count'),
      ])
      .orderBy('b.is_default', 'desc')
      .orderBy('b.code')
      .limit(f.limit)
      .offset(f.offset),
    q.select((eb) => eb.fn.countAll<number>().as('n')),
  );
}

export async function listPages(
  db: Kysely<ApltDatabase>,
  f: Page & { brand_id?: number; q?: string; status?: string },
) {
  let q = db.selectFrom('aplt_cms_pages as p').innerJoin('aplt_brands as b', 'b.id', 'p.brand_id');
  if (f.brand_id) q = q.where('p.brand_id', '=', f.brand_id);
  if (f.status) q = q.where('p.status', '=', f.status);
  if (f.q) {
    const p = containsPattern(f.q);
    q = q.where((eb) =>
      eb.or([
        eb('p.slug', 'ilike', p),
        eb('p.title_nl', 'ilike', p),
        eb('p.title_en', 'ilike', p),
        eb('p.title_de', 'ilike', p),
      ]),
    );
  }
  return paged(
    q
      .select([
        'p.id',
        'p.brand_id',
        'b.code as brand_code',
        'p.slug',
        'p.template',
        'p.title_nl',
        'p.title_en',
        'p.title_de',
        'p.meta_title_nl',
        'p.meta_description_nl',
        'p.status',
        'p.published_at',
        'p.sort_order',
        'p.updated_at',
        sql<number>`coalesce(length(p.content_nl), 0)`.as('content_nl_length'),
        sql<number>`coalesce(length(p.content_en), 0)`.as('content_en_length'),
        sql<number>`coalesce(length(p.content_de), 0)`.as('content_de_length'),
      ])
      .orderBy('b.code')
      .orderBy('p.sort_order')
      .orderBy('p.slug')
      .limit(f.limit)
      .offset(f.offset),
    q.select((eb) => eb.fn.countAll<number>().as('n')),
  );
}

export async function listMenus(
  db: Kysely<ApltDatabase>,
  f: Page & { brand_id?: number; location?: string },
) {
  let q = db.selectFrom('aplt_cms_menus as m').innerJoin('aplt_brands as b', 'b.id', 'm.brand_id');
  if (f.brand_id) q = q.where('m.brand_id', '=', f.brand_id);
  if (f.location) q = q.where('m.location', '=', f.location);
  return paged(
    q
      .select([
        'm.id',
        'm.brand_id',
        'b.code as brand_code',
        'm.code',
        'm.name',
        'm.location',
        'm.is_active',
        'm.updated_at',
      ])
      .orderBy('b.code')
      .orderBy('m.code')
      .limit(f.limit)
      .offset(f.offset),
    q.select((eb) => eb.fn.countAll<number>().as('n')),
  );
}

export async function menuItems(db: Kysely<ApltDatabase>, menuIds: number[]) {
  if (!menuIds.length) return [];
  return db
    .selectFrom('aplt_cms_menu_items')
    .select([
      'id',
      'menu_id',
      'parent_id',
      'label_nl',
      'label_en',
      'label_de',
      'url',
      'page_id',
      'category_id',
      'open_in_new_tab',
      'sort_order',
      'is_active',
    ])
    .where('menu_id', 'in', menuIds)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

/**
 * Every translatable text of the content and reference tables as one list: one row per record
 * and field with its Dutch, English and German version. Product texts are the catalog's (the
 * master's connectors write them) and are not in it.
 */
const translatable = sql`
  SELECT 'cms_page' AS source, id AS record_id, 'title' AS field, title_nl AS nl, title_en AS en, title_de AS de, updated_at FROM aplt_cms_pages
  UNION ALL SELECT 'cms_page', id, 'meta_title', meta_title_nl, meta_title_en, meta_title_de, updated_at FROM aplt_cms_pages
    WHERE num_nonnulls(meta_title_nl, meta_title_en, meta_title_de) > 0
  UNION ALL SELECT 'cms_page', id, 'meta_description', meta_description_nl, meta_description_en, meta_description_de, updated_at FROM aplt_cms_pages
    WHERE num_nonnulls(meta_description_nl, meta_description_en, meta_description_de) > 0
  UNION ALL SELECT 'cms_menu_item', id, 'label', label_nl, label_en, label_de, updated_at FROM aplt_cms_menu_items
  UNION ALL SELECT 'cms_footer_section', id, 'title', title_nl, title_en, title_de, updated_at FROM aplt_cms_footer_sections
  UNION ALL SELECT 'cms_footer_link', id, 'label', label_nl, label_en, label_de, updated_at FROM aplt_cms_footer_links
  UNION ALL SELECT 'category', id, 'name', name_nl, name_en, name_de, updated_at FROM aplt_categories
  UNION ALL SELECT 'color', id, 'name', name_nl, name_en, name_de, updated_at FROM aplt_colors
    WHERE num_nonnulls(name_nl, name_en, name_de) > 0
  UNION ALL SELECT 'payment_term', id, 'name', name_nl, name_en, name_de, updated_at FROM aplt_payment_terms
    WHERE num_nonnulls(name_nl, name_en, name_de) > 0`;

export async function listTranslations(
  db: Kysely<ApltDatabase>,
  f: Page & { source?: string; missing?: 'en' | 'de' | 'any'; q?: string },
) {
  const conds = [sql`true`];
  if (f.source) conds.push(sql`t.source = ${f.source}`);
  if (f.missing === 'en') conds.push(sql`coalesce(t.en, '') = ''`);
  if (f.missing === 'de') conds.push(sql`coalesce(t.de, '') = ''`);
  if (f.missing === 'any') conds.push(sql`(coalesce(t.en, '') = '' OR coalesce(t.de, '') = '')`);
  if (f.q) {
    const p = containsPattern(f.q);
    conds.push(sql`(t.nl ILIKE ${p} OR t.en ILIKE ${p} OR t.de ILIKE ${p})`);
  }
  const where = sql.join(conds, sql` AND `);
  const [rows, total] = await Promise.all([
    sql<{
      source: (typeof translationSources)[number];
      record_id: number;
      field: string;
      nl: string | null;
      en: string | null;
      de: string | null;
      updated_at: Date;
    }>`SELECT * FROM (${translatable}) t WHERE ${where}
        ORDER BY t.source, t.record_id, t.field LIMIT ${f.limit} OFFSET ${f.offset}`.execute(db),
    sql<{ n: number }>`SELECT count(*)::int AS n FROM (${translatable}) t WHERE ${where}`.execute(db),
  ]);
  return { rows: rows.rows, count: Number(total.rows[0]?.n ?? 0) };
}
