import type { ApltDatabase, Kysely } from '@aplt/db';
import type { PageQuery } from '../shared/paging';
import * as repo from './content.repository';

/*
 * The content group's records, read-only: each list is one page plus the count of matching rows,
 * with the children a screen needs (menu items, footer links) attached.
 */

const page = <T>(r: { rows: T[]; count: number }, q: PageQuery) => ({
  data: r.rows,
  count: r.count,
  limit: q.limit,
  offset: q.offset,
});

export const cmsSettings = async (
  db: Kysely<ApltDatabase>,
  q: PageQuery & { brand_id?: number; q?: string },
) => page(await repo.listCmsSettings(db, q), q);

export async function footer(db: Kysely<ApltDatabase>, q: PageQuery & { brand_id?: number }) {
  const r = await repo.listFooterSections(db, q);
  const links = await repo.footerLinks(
    db,
    r.rows.map((s) => s.id),
  );
  return page(
    {
      rows: r.rows.map((s) => ({ ...s, links: links.filter((l) => l.section_id === s.id) })),
      count: r.count,
    },
    q,
  );
}

export const modules = async (db: Kysely<ApltDatabase>, q: PageQuery & { q?: string }) =>
  page(await repo.listModules(db, q), q);

export const brands = async (db: Kysely<ApltDatabase>, q: PageQuery & { q?: string }) =>
  page(await repo.listBrands(db, q), q);

export async function pages(
  db: Kysely<ApltDatabase>,
  q: PageQuery & { brand_id?: number; q?: string; status?: string },
) {
  const r = await repo.listPages(db, q);
  return page(
    {
      rows: r.rows.map(({ content_nl_length, content_en_length, content_de_length, ...p }) => ({
        ...p,
        content_length: { nl: content_nl_length, en: content_en_length, de: content_de_length },
      })),
      count: r.count,
    },
    q,
  );
}

export async function menus(
  db: Kysely<ApltDatabase>,
  q: PageQuery & { brand_id?: number; location?: string },
) {
  const r = await repo.listMenus(db, q);
  const items = await repo.menuItems(
    db,
    r.rows.map((m) => m.id),
  );
  return page(
    { rows: r.rows.map((m) => ({ ...m, items: items.filter((i) => i.menu_id === m.id) })), count: r.count },
    q,
  );
}

export const translations = async (
  db: Kysely<ApltDatabase>,
  q: PageQuery & { source?: string; missing?: 'en' | 'de' | 'any'; q?: string },
) => page(await repo.listTranslations(db, q), q);
