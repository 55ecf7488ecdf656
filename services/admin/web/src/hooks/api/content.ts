import type { Json } from '../../lib/json';
import { queryKeysFactory } from '../../lib/query-key-factory';
import { useAdminQuery } from './use-admin-query';

/**
 * The content group's read-only lists (`/admin/aplt/content/<list>`, documents service; each
 * list is licensed by its own feature).
 */
export type ContentList =
  'cms-settings' | 'footer' | 'modules' | 'brands' | 'pages' | 'menus' | 'translations';

export interface Page<T> {
  data: T[];
  count: number;
  limit: number;
  offset: number;
}

export const contentQueryKeys = queryKeysFactory('content');

export const useContentList = <T>(list: ContentList, query: Record<string, unknown>) =>
  useAdminQuery<Json<Page<T>>>(`/admin/aplt/content/${list}`, query, {
    queryKey: contentQueryKeys.list({ list, ...query }),
    placeholderData: (previous) => previous,
  });
