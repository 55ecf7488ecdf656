import type { TenantRecord } from '@aplt/db';
import type { FastifyRequest } from 'fastify';

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  return undefined;
}

/** The origin the client used (through the proxy: its Host and scheme). */
export function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** Admin panel base for links: the registry's, else configuration, else where the request came in. */
export function adminBase(request: FastifyRequest, tenant: TenantRecord, configured?: string): string {
  return tenant.adminBaseUrl ?? configured ?? requestOrigin(request);
}
