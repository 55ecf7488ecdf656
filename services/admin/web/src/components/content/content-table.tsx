import { useTranslation } from 'react-i18next';
import { type ContentList, useContentList } from '../../hooks/api/content';
import { DataTable, type DataTableColumn, type DataTableFilter } from '../table/data-table';
import { useDataTableQuery } from '../table/use-data-table-query';

/**
 * One read-only list of the content group (`/admin/aplt/content/<list>`), paged and searched on
 * the server, with the list's own filters. `prefix` keeps two lists on one page apart in the URL.
 */
export function ContentTable<T, F extends string = never>({
  list,
  columns,
  rowKey,
  filters = [],
  search = true,
  prefix,
  testId,
}: {
  list: ContentList;
  columns: DataTableColumn<T>[];
  rowKey: (row: T) => string | number;
  filters?: DataTableFilter<F>[];
  search?: boolean;
  prefix?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const query = useDataTableQuery<F>({ pageSize: 20, filterKeys: filters.map((f) => f.key), prefix });
  const data = useContentList<T>(list, query.apiQuery);
  return (
    <DataTable<T, F>
      columns={columns}
      rows={data.data?.data as T[] | undefined}
      count={data.data?.count}
      isLoading={data.isPending}
      error={data.error}
      onRetry={() => void data.refetch()}
      rowKey={rowKey}
      query={query}
      search={search}
      filters={filters}
      emptyDescription={t('content.readOnly')}
      testId={testId}
    />
  );
}
