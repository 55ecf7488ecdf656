import type { Json } from '../../lib/json';
import { queryKeysFactory } from '../../lib/query-key-factory';
import { adminFetch, useAdminMutation, useAdminQuery } from './use-admin-query';

/** Storefront access requests (`/admin/aplt/access-requests`, gatekeeper, feature `access_requests`). */
export interface AccessRequest {
  id: number;
  ip_address: string;
  name: string | null;
  email: string | null;
  company: string | null;
  message: string | null;
  status: 'pending' | 'approved' | 'rejected';
  approved_by: string | null;
  approved_at: string | null;
  created_at: string;
}
export type AccessRequestList = Json<{
  access_requests: AccessRequest[];
  count: number;
  limit: number;
  offset: number;
}>;
export type AccessRequestQuery = { limit: number; offset: number; status?: string };

export const accessRequestsQueryKeys = queryKeysFactory('access-requests');

export const useAccessRequests = (query: AccessRequestQuery) =>
  useAdminQuery<AccessRequestList>('/admin/aplt/access-requests', query, {
    queryKey: accessRequestsQueryKeys.list(query),
    placeholderData: (previous) => previous,
  });

export const useDecideAccessRequest = () =>
  useAdminMutation(
    ({ id, status, reason }: { id: number; status: 'approved' | 'rejected'; reason?: string }) =>
      adminFetch<{ access_request: AccessRequest }>(`/admin/aplt/access-requests/${id}`, 'PUT', {
        status,
        ...(reason ? { reason } : {}),
      }),
    { invalidates: [accessRequestsQueryKeys.all] },
  );
