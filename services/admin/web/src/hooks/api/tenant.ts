import { useAdminQuery } from './use-admin-query';

export interface TenantInfo {
  service: string;
  tenant: { id: string; kind: string; name: string };
}

/** Which tenant this host is (`GET /` of the admin service): its name heads the sidebar. */
export const useTenant = () =>
  useAdminQuery<TenantInfo>('/', undefined, { queryKey: ['admin', 'tenant'], staleTime: Infinity });
