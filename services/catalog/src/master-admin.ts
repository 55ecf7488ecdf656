import { forbidden, requireActor } from '@aplt/http';
import type { FastifyRequest } from 'fastify';

/**
 * preHandler of the routes that write across tenants (connector imports into the master catalog,
 * the tenant update into other tenants' catalogs, the fleet's tenant list): an admin of the master
 * tenant, signed in on the master's own host. The token is checked first (401 without one); an
 * admin of any other tenant gets 403. A tenant token is only valid on its own tenant's hosts
 * (tenantJwtSecret), so "a valid admin token on a master host" is "an admin of the master".
 */
export function requireMasterAdmin(what: string) {
  const admin = requireActor('user');
  return async function masterAdminGuard(request: FastifyRequest): Promise<void> {
    await admin(request);
    if (request.tenant.kind !== 'master') throw forbidden(`${what} is for admins of the master tenant only`);
  };
}
