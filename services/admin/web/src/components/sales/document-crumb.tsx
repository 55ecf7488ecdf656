import { useQueryClient, useQuery } from '@tanstack/react-query';
import type { RouteHandle } from '../../router/types';

/**
 * The breadcrumb of a document page: its number once the page has loaded it (read from the
 * page's own query, never fetched again), `#id` until then.
 */
function DocumentCrumb({ resource, id, field }: { resource: string; id: string; field: string }) {
  const queryClient = useQueryClient();
  const key = ['admin', resource, 'detail', id];
  const { data } = useQuery<Record<string, unknown>>({
    queryKey: key,
    queryFn: () => queryClient.getQueryData(key) ?? {},
    enabled: false,
  });
  const number = data?.[field];
  return <span data-testid="crumb-document">{typeof number === 'string' ? number : `#${id}`}</span>;
}

/** `handle: documentCrumb('quotations', 'quotation_number')` on a `:id` route. */
export const documentCrumb = (resource: string, field: string): RouteHandle => ({
  breadcrumb: (m) => <DocumentCrumb resource={resource} id={m.params.id ?? ''} field={field} />,
});
