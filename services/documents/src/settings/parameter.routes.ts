import type { App } from '@aplt/http';
import { actorName, apltDb, type DocumentsContext } from '../shared/context';
import { adminRoute } from '../shared/route-options';
import { errorResponses } from '../shared/schemas';
import { parametersResponse, updateParametersBody } from './parameter.schemas';
import * as service from './parameter.service';

/** Tenant parameters (aplt_settings keys the service reads), licensed feature `parameters`. */
export function registerParameterRoutes(app: App, ctx: DocumentsContext) {
  const auth = adminRoute('parameters');

  app.get(
    '/admin/aplt/parameters',
    { ...auth, schema: { response: { ...errorResponses, 200: parametersResponse } } },
    async (request) => service.loadParameters(apltDb(ctx, request), ctx.config),
  );

  app.put(
    '/admin/aplt/parameters',
    {
      ...auth,
      schema: { body: updateParametersBody, response: { ...errorResponses, 200: parametersResponse } },
    },
    async (request) =>
      service.updateParameters(apltDb(ctx, request), ctx.config, request.body, {
        actor: actorName(request),
        request_id: request.id,
        ip: request.ip,
        user_agent: request.headers['user-agent'] ?? null,
      }),
  );
}
