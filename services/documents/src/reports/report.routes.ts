import { type App, badRequest } from '@aplt/http';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { apltDb, type DocumentsContext, today } from '../shared/context';
import { adminRoute } from '../shared/route-options';
import { anyObject, errorResponses } from '../shared/schemas';
import { asOfQuery, periodQuery, reportIndex } from './report.schemas';
import * as service from './report.service';

function range(q: { from?: string; to?: string }) {
  const to = q.to ?? today();
  const from = q.from ?? `${to.slice(0, 4)}-01-01`;
  if (from > to) throw badRequest('from must not be after to');
  return { from, to };
}

type AsOf = z.infer<typeof asOfQuery>;
type Period = z.infer<typeof periodQuery>;

/**
 * Every report once: its route, query rules and the text of the index at /admin/aplt/reports,
 * so the index cannot list a report that is not there or miss one that is.
 */
interface Report {
  name: string;
  description: string;
  query: z.ZodObject;
  /** Defaults the schema cannot say (worked out per request), in words. */
  defaults: Record<string, string>;
  run: (request: FastifyRequest) => Promise<Record<string, unknown>>;
}

const reports = (ctx: DocumentsContext): Report[] => {
  const db = (request: FastifyRequest) => apltDb(ctx, request);
  return [
    {
      name: 'aged-receivables',
      description:
        'Outstanding invoice amounts as of a date, per bucket of days past due (not yet due, 0-30, 31-60, 61-90, 90+), per customer and per invoice',
      query: asOfQuery,
      defaults: { as_of: 'today' },
      run: (request: FastifyRequest) =>
        service.agedReceivables(db(request), (request.query as AsOf).as_of ?? today()),
    },
    {
      name: 'revenue',
      description: 'Net revenue excl. VAT per period: invoices minus credit notes, by issue date',
      query: periodQuery,
      defaults: { from: '1 January of the year of to', to: 'today' },
      run: (request: FastifyRequest) => {
        const q = request.query as Period;
        const { from, to } = range(q);
        return service.revenue(db(request), from, to, q.period);
      },
    },
    {
      name: 'vat',
      description: 'VAT per period, category and rate (credit notes negative)',
      query: periodQuery,
      defaults: { from: '1 January of the year of to', to: 'today' },
      run: (request: FastifyRequest) => {
        const q = request.query as Period;
        const { from, to } = range(q);
        return service.vatReport(db(request), from, to, q.period);
      },
    },
    {
      name: 'dashboard',
      description:
        'KPIs: open quotation value, conversion rate, revenue this month, overdue amount, receivables',
      query: asOfQuery,
      defaults: { as_of: 'today' },
      run: (request: FastifyRequest) =>
        service.dashboard(db(request), (request.query as AsOf).as_of ?? today()),
    },
  ];
};

/** One query parameter as the index describes it, read from the route's own zod schema. */
function parametersOf(query: z.ZodObject, defaults: Record<string, string>) {
  const json = z.toJSONSchema(query, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, { type?: string; enum?: string[]; pattern?: string; default?: unknown }>;
  };
  return Object.entries(json.properties ?? {}).map(([name, p]) => ({
    name,
    type: p.enum ? 'enum' : p.pattern ? 'date' : (p.type ?? 'string'),
    ...(p.enum ? { values: p.enum } : {}),
    required: false,
    default: p.default !== undefined ? String(p.default) : (defaults[name] ?? null),
  }));
}

export function registerReportRoutes(app: App, ctx: DocumentsContext) {
  const auth = adminRoute('reports');
  const table = reports(ctx);
  const index: z.infer<typeof reportIndex> = {
    reports: table.map((r) => ({
      name: r.name,
      path: `/admin/aplt/reports/${r.name}`,
      method: 'GET' as const,
      description: r.description,
      parameters: parametersOf(r.query, r.defaults),
    })),
  };

  app.get(
    '/admin/aplt/reports',
    { ...auth, schema: { response: { ...errorResponses, 200: reportIndex } } },
    async () => index,
  );
  for (const r of table)
    app.get(
      `/admin/aplt/reports/${r.name}`,
      { ...auth, schema: { querystring: r.query, response: { ...errorResponses, 200: anyObject } } },
      async (request) => r.run(request),
    );
}
