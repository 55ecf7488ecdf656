import { type App, badRequest } from '@aplt/http';
import { apltDb, type DocumentsContext, today } from '../shared/context';
import { adminRoute } from '../shared/route-options';
import { anyObject, errorResponses } from '../shared/schemas';
import { asOfQuery, periodQuery } from './report.schemas';
import * as service from './report.service';

function range(q: { from?: string; to?: string }) {
  const to = q.to ?? today();
  const from = q.from ?? `${to.slice(0, 4)}-01-01`;
  if (from > to) throw badRequest('from must not be after to');
  return { from, to };
}

export function registerReportRoutes(app: App, ctx: DocumentsContext) {
  const auth = adminRoute('reports');
  const asOf = asOfQuery;

  app.get(
    '/admin/aplt/reports/aged-receivables',
    { ...auth, schema: { querystring: asOf, response: { ...errorResponses, 200: anyObject } } },
    async (request) => service.agedReceivables(apltDb(ctx, request), request.query.as_of ?? today()),
  );
  app.get(
    '/admin/aplt/reports/revenue',
    { ...auth, schema: { querystring: periodQuery, response: { ...errorResponses, 200: anyObject } } },
    async (request) => {
      const { from, to } = range(request.query);
      return service.revenue(apltDb(ctx, request), from, to, request.query.period);
    },
  );
  app.get(
    '/admin/aplt/reports/vat',
    { ...auth, schema: { querystring: periodQuery, response: { ...errorResponses, 200: anyObject } } },
    async (request) => {
      const { from, to } = range(request.query);
      return service.vatReport(apltDb(ctx, request), from, to, request.query.period);
    },
  );
  app.get(
    '/admin/aplt/reports/dashboard',
    { ...auth, schema: { querystring: asOf, response: { ...errorResponses, 200: anyObject } } },
    async (request) => service.dashboard(apltDb(ctx, request), request.query.as_of ?? today()),
  );
}
