import type { ApltDatabase } from '@aplt/db';
import type { App } from '@aplt/http';
import type { FastifyRequest } from 'fastify';
import { masterTenant } from '../deps';
import { requireMasterAdmin } from '../master-admin';
import { auditActor } from '../shared/audit.repository';
import { errorResponses } from '../shared/error-responses';
import { recordIdParam } from '../shared/paging';
import { requireActor } from '@aplt/http';
import { listSuppliersQuery, supplierDetail, supplierList, updateSupplierBody } from './supplier.schemas';
import * as service from './supplier.service';

/**
 * Suppliers (feature `suppliers`). Any tenant's admin reads the suppliers of its own catalog;
 * only the master's admins change them: the tenant update copies the master's suppliers over a
 * tenant's, so a change made on a tenant would be undone by the next update.
 */
export async function supplierRoutes(app: App) {
  const licensed = { config: { feature: 'suppliers' as const } };
  const read = { ...licensed, preHandler: requireActor('user') };
  const write = { ...licensed, preHandler: requireMasterAdmin('Changing a supplier') };
  const dbs = (request: FastifyRequest) => app.catalogDeps.databases.aplt<ApltDatabase>(request.tenant);
  const masterDb = async () => {
    const m = await masterTenant(app.catalogDeps.registry);
    return m ? app.catalogDeps.databases.aplt<ApltDatabase>(m) : null;
  };
  const editable = (request: FastifyRequest) => request.tenant.kind === 'master';

  app.get(
    '/admin/aplt/suppliers',
    {
      ...read,
      schema: { querystring: listSuppliersQuery, response: { ...errorResponses, 200: supplierList } },
    },
    async (request) =>
      service.listSuppliers(dbs(request), await masterDb(), request.query, editable(request)),
  );

  app.get(
    '/admin/aplt/suppliers/:id',
    { ...read, schema: { params: recordIdParam, response: { ...errorResponses, 200: supplierDetail } } },
    async (request) =>
      service.loadSupplier(dbs(request), await masterDb(), request.params.id, editable(request)),
  );

  app.put(
    '/admin/aplt/suppliers/:id',
    {
      ...write,
      schema: {
        params: recordIdParam,
        body: updateSupplierBody,
        response: { ...errorResponses, 200: supplierDetail },
      },
    },
    async (request) =>
      service.updateSupplier(
        dbs(request),
        await masterDb(),
        request.params.id,
        request.body,
        auditActor(request),
      ),
  );
}
