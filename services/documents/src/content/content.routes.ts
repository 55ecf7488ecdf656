import type { App } from '@aplt/http';
import { apltDb, type DocumentsContext } from '../shared/context';
import { adminRoute } from '../shared/route-options';
import { errorResponses } from '../shared/schemas';
import * as s from './content.schemas';
import * as service from './content.service';

/**
 * The content group, read-only until its routes are specified: one list per licensed feature
 * over the tables that hold its records (cms: company/brand settings and the footer; cms_modules:
 * modules; brand_wizard: brands; page_manager: pages; menu_manager: menus with their items;
 * translations: every translatable text of the content and reference tables).
 */
export function registerContentRoutes(app: App, ctx: DocumentsContext) {
  const list = <Q, R>(querystring: Q, response: R) => ({
    querystring,
    response: { ...errorResponses, 200: response },
  });

  app.get(
    '/admin/aplt/content/cms-settings',
    { ...adminRoute('cms'), schema: list(s.cmsSettingsQuery, s.cmsSettingsList) },
    async (request) => service.cmsSettings(apltDb(ctx, request), request.query),
  );
  app.get(
    '/admin/aplt/content/footer',
    { ...adminRoute('cms'), schema: list(s.footerQuery, s.footerList) },
    async (request) => service.footer(apltDb(ctx, request), request.query),
  );
  app.get(
    '/admin/aplt/content/modules',
    { ...adminRoute('cms_modules'), schema: list(s.modulesQuery, s.modulesList) },
    async (request) => service.modules(apltDb(ctx, request), request.query),
  );
  app.get(
    '/admin/aplt/content/brands',
    { ...adminRoute('brand_wizard'), schema: list(s.brandsQuery, s.brandsList) },
    async (request) => service.brands(apltDb(ctx, request), request.query),
  );
  app.get(
    '/admin/aplt/content/pages',
    { ...adminRoute('page_manager'), schema: list(s.pagesQuery, s.pagesList) },
    async (request) => service.pages(apltDb(ctx, request), request.query),
  );
  app.get(
    '/admin/aplt/content/menus',
    { ...adminRoute('menu_manager'), schema: list(s.menusQuery, s.menusList) },
    async (request) => service.menus(apltDb(ctx, request), request.query),
  );
  app.get(
    '/admin/aplt/content/translations',
    { ...adminRoute('translations'), schema: list(s.translationsQuery, s.translationsList) },
    async (request) => service.translations(apltDb(ctx, request), request.query),
  );
}
