import { z } from 'zod';
import { pageOf, pageQuery, recordId, searchQuery, timestamp } from '../shared/paging';

/*
 * Read-only lists of the content group (cms, cms_modules, brand_wizard, page_manager,
 * menu_manager, translations) over the tables that hold their records, until their own routes
 * are specified. Browser-safe (zod only).
 */

const brandFilter = { brand_id: recordId.optional() };

export const cmsSettingsQuery = pageQuery.extend({ ...brandFilter, q: searchQuery });
export const cmsSetting = z.object({
  id: z.number(),
  brand_id: z.number(),
  brand_code: z.string(),
  key: z.string(),
  value: z.string().nullable(),
  description: z.string().nullable(),
  updated_at: timestamp,
});

export const footerQuery = pageQuery.extend(brandFilter);
export const footerSection = z.object({
  id: z.number(),
  brand_id: z.number(),
  brand_code: z.string(),
  title_nl: z.string(),
  title_en: z.string().nullable(),
  title_de: z.string().nullable(),
  sort_order: z.number(),
  is_active: z.boolean(),
  updated_at: timestamp,
  links: z.array(
    z.object({
      id: z.number(),
      label_nl: z.string(),
      label_en: z.string().nullable(),
      label_de: z.string().nullable(),
      url: z.string().nullable(),
      page_id: z.number().nullable(),
      open_in_new_tab: z.boolean(),
      sort_order: z.number(),
      is_active: z.boolean(),
    }),
  ),
});

export const modulesQuery = pageQuery.extend({ q: searchQuery });
export const moduleRecord = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  feature_key: z.string().nullable(),
  version: z.string().nullable(),
  is_core: z.boolean(),
  is_active: z.boolean(),
  /** Rows of aplt_tenant_modules that enable it. */
  enabled_count: z.number(),
  updated_at: timestamp,
});

export const brandsQuery = pageQuery.extend({ q: searchQuery });
export const brandRecord = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  domain: z.string().nullable(),
  logo_url: z.string().nullable(),
  primary_color: z.string().nullable(),
  default_language: z.string(),
  is_default: z.boolean(),
  is_active: z.boolean(),
  settings_count: z.number(),
  pages_count: z.number(),
  menus_count: z.number(),
  updated_at: timestamp,
});

export const pagesQuery = pageQuery.extend({
  ...brandFilter,
  q: searchQuery,
  status: z.enum(['draft', 'published', 'archived']).optional(),
});
export const pageRecord = z.object({
  id: z.number(),
  brand_id: z.number(),
  brand_code: z.string(),
  slug: z.string(),
  template: z.string(),
  title_nl: z.string(),
  title_en: z.string().nullable(),
  title_de: z.string().nullable(),
  meta_title_nl: z.string().nullable(),
  meta_description_nl: z.string().nullable(),
  status: z.string(),
  published_at: timestamp.nullable(),
  sort_order: z.number(),
  /** Length of the page body per language (the bodies themselves are not in the list). */
  content_length: z.object({ nl: z.number(), en: z.number(), de: z.number() }),
  updated_at: timestamp,
});

export const menusQuery = pageQuery.extend({
  ...brandFilter,
  location: z.enum(['header', 'footer', 'sidebar', 'mobile', 'other']).optional(),
});
export const menuRecord = z.object({
  id: z.number(),
  brand_id: z.number(),
  brand_code: z.string(),
  code: z.string(),
  name: z.string(),
  location: z.string(),
  is_active: z.boolean(),
  updated_at: timestamp,
  /** Every item of the menu, ordered by sort_order; parent_id builds the tree. */
  items: z.array(
    z.object({
      id: z.number(),
      parent_id: z.number().nullable(),
      label_nl: z.string(),
      label_en: z.string().nullable(),
      label_de: z.string().nullable(),
      url: z.string().nullable(),
      page_id: z.number().nullable(),
      category_id: z.number().nullable(),
      open_in_new_tab: z.boolean(),
      sort_order: z.number(),
      is_active: z.boolean(),
    }),
  ),
});

export const translationSources = [
  'cms_page',
  'cms_menu_item',
  'cms_footer_section',
  'cms_footer_link',
  'category',
  'color',
  'payment_term',
] as const;
export const translationsQuery = pageQuery.extend({
  source: z.enum(translationSources).optional(),
  /** Only texts without an English / German version (or without either). */
  missing: z.enum(['en', 'de', 'any']).optional(),
  q: searchQuery,
});
export const translationRecord = z.object({
  source: z.enum(translationSources),
  record_id: z.number(),
  field: z.string(),
  nl: z.string().nullable(),
  en: z.string().nullable(),
  de: z.string().nullable(),
  updated_at: timestamp,
});

export const cmsSettingsList = pageOf(cmsSetting);
export const footerList = pageOf(footerSection);
export const modulesList = pageOf(moduleRecord);
export const brandsList = pageOf(brandRecord);
export const pagesList = pageOf(pageRecord);
export const menusList = pageOf(menuRecord);
export const translationsList = pageOf(translationRecord);
