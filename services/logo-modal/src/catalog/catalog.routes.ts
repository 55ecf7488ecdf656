import { errorBody, notFound, type App } from '@aplt/http';
import { loadSharp } from '../render/sharp';
import { z } from 'zod';
import type { Config } from '../config';
import { type CatalogDeps, configCheck, masterDb, requireProduct } from './catalog.service';
import { parseSku } from './sku';
import { loadTemplate, withVariantColor } from './template.service';

const techniqueEntry = z.object({
  code: z.string(),
  name: z.string(),
  print_area: z.string(),
  position: z.string(),
  positions: z.number().int(),
});

const configuratorView = z.object({
  sku: z.string(),
  baseSku: z.string(),
  name: z.string(),
  variantFromSku: z.string().nullable(),
  variants: z.array(
    z.object({ variantCode: z.string(), colorName: z.string(), colorCode: z.string(), hex: z.string() }),
  ),
  techniques: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      maxColours: z.number().nullable(),
      fullColour: z.boolean(),
      isDefault: z.boolean(),
      positions: z.array(
        z.object({
          code: z.string(),
          name: z.string(),
          printArea: z.string(),
          box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
          template: z.object({
            url: z.string(),
            width: z.number().optional(),
            height: z.number().optional(),
          }),
        }),
      ),
    }),
  ),
});

export function catalogRoutes(app: App, deps: CatalogDeps, config: Config) {
  app.get(
    '/api/config-check/:sku',
    {
      schema: {
        params: z.object({ sku: z.string().max(64) }),
        response: {
          200: z.object({
            available: z.boolean(),
            hasSvg: z.boolean(),
            hasCoordinates: z.boolean(),
            sku: z.string(),
            base_sku: z.string(),
            techniques: z.array(techniqueEntry),
          }),
          400: errorBody,
        },
      },
    },
    async (request) => configCheck(await masterDb(deps), request.params.sku),
  );

  // What the modal page needs to draw a product: variants, techniques, positions with their boxes.
  app.get(
    '/api/configurator/:sku',
    {
      schema: {
        params: z.object({ sku: z.string().max(64) }),
        response: { 200: configuratorView, 400: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const { sku, baseSku, variantSku } = parseSku(request.params.sku);
      const loaded = await requireProduct(await masterDb(deps), baseSku);
      const techniques = await Promise.all(
        loaded.techniques.map(async (t) => ({
          code: t.code,
          name: t.name,
          maxColours: t.maxColours,
          fullColour: t.fullColour,
          isDefault: t.isDefault,
          positions: await Promise.all(
            t.positions
              .filter((p) => p.templatePath)
              .map(async (p) => {
                const sharp = await loadSharp();
                const meta = await sharp(
                  Buffer.from(await loadTemplate(p.templatePath as string, config.SVG_TEMPLATE_DIR)),
                ).metadata();
                return {
                  code: p.code,
                  name: p.name,
                  printArea: p.printArea,
                  box: p.box,
                  template: {
                    url: `/api/configurator/${baseSku}/positions/${encodeURIComponent(p.code)}/template.svg`,
                    width: meta.width,
                    height: meta.height,
                  },
                };
              }),
          ),
        })),
      );
      return {
        sku,
        baseSku,
        name: loaded.product.name,
        variantFromSku: variantSku,
        variants: loaded.variants.map((v) => ({
          variantCode: v.sku,
          colorName: v.colorName ?? '',
          colorCode: v.colorCode ?? '',
          hex: v.hex ?? '',
        })),
        techniques: techniques.filter((t) => t.positions.length > 0),
      };
    },
  );

  app.get(
    '/api/configurator/:sku/positions/:position/template.svg',
    {
      schema: {
        params: z.object({ sku: z.string().max(64), position: z.string().max(100) }),
        querystring: z.object({
          color: z
            .string()
            .regex(/^#[0-9a-fA-F]{6}$/)
            .optional(),
        }),
        response: { 200: z.string(), 404: errorBody },
      },
    },
    async (request, reply) => {
      const loaded = await requireProduct(await masterDb(deps), request.params.sku);
      const position = loaded.techniques
        .flatMap((t) => t.positions)
        .find((p) => p.code === request.params.position);
      if (!position?.templatePath) throw notFound('No template for this print position');
      const svg = withVariantColor(
        await loadTemplate(position.templatePath, config.SVG_TEMPLATE_DIR),
        request.query.color,
      );
      return reply
        .header('content-type', 'image/svg+xml')
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'public, max-age=300')
        .send(svg);
    },
  );
}
