import type { ApltDatabase } from '@aplt/db';
import { type App, requireActor } from '@aplt/http';
import { z } from 'zod';
import { assist } from './assist.service';
import { generateLines } from './generate-lines.service';
import { productSearch } from './product-search.service';
import { searchFilters } from './query-parser';

/** AI-assisted admin endpoints (the ai_assist add-on); they read the calling tenant's own aplt DB. */
export async function aiRoutes(app: App) {
  const guard = { config: { feature: 'ai_assist' as const }, preHandler: requireActor('user') };

  app.post(
    '/admin/agent/product-search',
    {
      ...guard,
      schema: {
        body: z.object({
          query: z.string().trim().min(1).max(500),
          limit: z.number().int().min(1).max(50).default(10),
        }),
        response: {
          200: z.object({
            query: z.string(),
            filters: searchFilters,
            provider: z.string(),
            results: z.array(
              z.object({
                id: z.number(),
                sku: z.string(),
                name: z.object({ nl: z.string(), en: z.string().nullable(), de: z.string().nullable() }),
                unit_price: z.string().nullable(),
                quantity: z.number(),
                colours: z.array(z.string()),
                techniques: z.array(z.string()),
                score: z.number(),
              }),
            ),
          }),
        },
      },
    },
    async (request) =>
      productSearch(
        app.catalogDeps.databases.aplt<ApltDatabase>(request.tenant),
        app.catalogDeps.ai,
        request.body.query,
        request.body.limit,
      ),
  );

  app.post(
    '/admin/aplt/ai-generate-lines',
    {
      ...guard,
      schema: {
        body: z.object({ text: z.string().trim().min(1).max(2000) }),
        response: {
          200: z.object({
            provider: z.string(),
            lines: z.array(
              z.object({
                request: z.string(),
                product_id: z.number(),
                sku: z.string(),
                name: z.string(),
                variant_id: z.number().nullable(),
                variant_sku: z.string().nullable(),
                colour: z.string().nullable(),
                quantity: z.number(),
                unit_price: z.string(),
                technique: z.object({ code: z.string(), name: z.string() }).nullable(),
                print_position: z.string().nullable(),
                print_area: z.string().nullable(),
                print_colours: z.number(),
                print_unit_price: z.string(),
                setup_cost: z.string(),
                line_total: z.string(),
              }),
            ),
            unmatched: z.array(z.string()),
            total: z.string(),
            currency: z.literal('EUR'),
          }),
        },
      },
    },
    async (request) =>
      generateLines(
        app.catalogDeps.databases.aplt<ApltDatabase>(request.tenant),
        app.catalogDeps.ai,
        request.body.text,
      ),
  );

  app.post(
    '/admin/aplt/ai-assist',
    {
      ...guard,
      schema: {
        body: z.object({ question: z.string().trim().min(1).max(1000) }),
        response: {
          200: z.object({
            answer: z.string(),
            intents: z.array(z.string()),
            data: z.record(z.string(), z.unknown()),
            provider: z.string(),
          }),
        },
      },
    },
    async (request) =>
      assist(
        app.catalogDeps.databases.aplt<ApltDatabase>(request.tenant),
        app.catalogDeps.ai,
        request.body.question,
      ),
  );
}
