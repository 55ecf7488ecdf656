import { Button, clx, Input, Select, Skeleton, Table, Text } from '@medusajs/ui';
import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { useFormat } from '../../hooks/use-format';
import { EmptyState } from '../common/empty-state';
import { ErrorAlert } from '../common/error-alert';
import type { DataTableQuery } from './use-data-table-query';

export interface DataTableColumn<T> {
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  align?: 'left' | 'right';
  className?: string;
}

export interface DataTableFilter<F extends string = string> {
  key: F;
  label: string;
  options: Array<{ value: string; label: string }>;
}

const ALL = '__all';

/**
 * A server-paged list in Medusa's look: search box and filters above, rows, page controls
 * below. The page, search and filters live in the URL (`useDataTableQuery`); the caller fetches
 * with `query.apiQuery` and passes the rows and the total.
 *
 * Keyboard: Tab reaches the rows; ArrowUp/ArrowDown (and Home/End) move the row focus, Enter
 * opens the focused row (`onRowOpen`), as a click does.
 */
export function DataTable<T, F extends string = never>({
  columns,
  rows,
  count,
  isLoading,
  error,
  onRetry,
  rowKey,
  onRowOpen,
  query,
  search = true,
  filters = [],
  emptyTitle,
  emptyDescription,
  toolbar,
  testId,
}: {
  columns: DataTableColumn<T>[];
  rows: T[] | undefined;
  /** Total number of matches; when the API does not say, paging goes by "a full page means more". */
  count?: number;
  isLoading: boolean;
  error?: unknown;
  onRetry?: () => void;
  rowKey: (row: T) => string | number;
  onRowOpen?: (row: T) => void;
  query: DataTableQuery<F>;
  search?: boolean;
  filters?: DataTableFilter<F>[];
  emptyTitle?: string;
  emptyDescription?: string;
  /** Extra controls at the right of the toolbar. */
  toolbar?: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const [term, setTerm] = useState(query.q);
  const debounced = useDebouncedValue(term, 300);
  const { q, setSearch } = query;
  useEffect(() => {
    if (debounced !== q) setSearch(debounced);
    // Only a change of what was typed searches; a URL change (back button) updates the box below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  useEffect(() => setTerm(q), [q]);

  const rowRefs = useRef<Array<HTMLTableRowElement | null>>([]);
  const [active, setActive] = useState(0);
  const list = rows ?? [];
  useEffect(() => setActive(0), [rows]);

  const onRowKeyDown = (e: KeyboardEvent<HTMLTableRowElement>, index: number, row: T) => {
    const move = (to: number) => {
      e.preventDefault();
      const target = Math.max(0, Math.min(list.length - 1, to));
      setActive(target);
      rowRefs.current[target]?.focus();
    };
    if (e.key === 'ArrowDown') move(index + 1);
    else if (e.key === 'ArrowUp') move(index - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(list.length - 1);
    else if (e.key === 'Enter' && onRowOpen) {
      e.preventDefault();
      onRowOpen(row);
    }
  };

  const filtering = Boolean(query.q) || Object.keys(query.filters).length > 0;
  const from = list.length ? query.offset + 1 : 0;
  const to = query.offset + list.length;
  const hasNext = count !== undefined ? to < count : list.length === query.pageSize;

  return (
    <div className="flex flex-col" data-testid={testId}>
      {(search || filters.length > 0 || toolbar) && (
        <div className="flex flex-wrap items-center justify-between gap-2 px-6 py-4">
          <div className="flex flex-wrap items-center gap-2">
            {filters.map((f) => (
              <div key={f.key} className="w-48">
                <Select
                  size="small"
                  value={query.filters[f.key] ?? ALL}
                  onValueChange={(v) => query.setFilter(f.key, v === ALL ? null : v)}
                >
                  <Select.Trigger aria-label={f.label} data-filter={f.key}>
                    <Select.Value placeholder={f.label} />
                  </Select.Trigger>
                  <Select.Content>
                    <Select.Item value={ALL}>
                      {f.label}: {t('general.all')}
                    </Select.Item>
                    {f.options.map((o) => (
                      <Select.Item key={o.value} value={o.value}>
                        {o.label}
                      </Select.Item>
                    ))}
                  </Select.Content>
                </Select>
              </div>
            ))}
          </div>
          <div className="flex items-center gap-2">
            {search && (
              <Input
                size="small"
                type="search"
                value={term}
                onChange={(e) => setTerm(e.target.value)}
                placeholder={t('table.searchPlaceholder')}
                aria-label={t('general.search')}
                className="w-56"
                data-testid="table-search"
              />
            )}
            {toolbar}
          </div>
        </div>
      )}
      {error ? (
        <div className="px-6 pb-4">
          <ErrorAlert error={error} onRetry={onRetry} />
        </div>
      ) : !isLoading && list.length === 0 ? (
        <EmptyState
          title={emptyTitle ?? t('table.empty')}
          description={emptyDescription ?? (filtering ? t('table.emptyHint') : undefined)}
          action={
            filtering ? (
              <Button size="small" variant="secondary" onClick={() => query.clearFilters()}>
                {t('table.clearFilters')}
              </Button>
            ) : undefined
          }
        />
      ) : (
        <div className="overflow-x-auto">
          <Table aria-describedby={onRowOpen ? `${testId ?? 'table'}-keys` : undefined}>
            <Table.Header>
              <Table.Row>
                {columns.map((c) => (
                  <Table.HeaderCell
                    key={c.id}
                    className={clx(c.align === 'right' && 'text-right', c.className)}
                  >
                    {c.header}
                  </Table.HeaderCell>
                ))}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {isLoading && list.length === 0
                ? Array.from({ length: Math.min(query.pageSize, 6) }, (_, i) => (
                    <Table.Row key={`skeleton-${i}`}>
                      {columns.map((c) => (
                        <Table.Cell key={c.id}>
                          <Skeleton className="h-4 w-full max-w-[160px]" />
                        </Table.Cell>
                      ))}
                    </Table.Row>
                  ))
                : list.map((row, index) => (
                    <Table.Row
                      key={rowKey(row)}
                      ref={(el) => {
                        rowRefs.current[index] = el;
                      }}
                      tabIndex={index === active ? 0 : -1}
                      data-row-index={index}
                      aria-selected={index === active}
                      onFocus={() => setActive(index)}
                      onKeyDown={(e) => onRowKeyDown(e, index, row)}
                      onClick={onRowOpen ? () => onRowOpen(row) : undefined}
                      className={clx(
                        'outline-none focus-visible:bg-ui-bg-base-hover focus-visible:shadow-borders-interactive-with-focus',
                        onRowOpen && 'cursor-pointer',
                      )}
                    >
                      {columns.map((c) => (
                        <Table.Cell
                          key={c.id}
                          className={clx(c.align === 'right' && 'text-right', c.className)}
                        >
                          {c.cell(row)}
                        </Table.Cell>
                      ))}
                    </Table.Row>
                  ))}
            </Table.Body>
          </Table>
        </div>
      )}
      <div className="flex items-center justify-between gap-x-4 border-t px-6 py-3">
        <Text size="small" className="text-ui-fg-subtle" data-testid="table-range">
          {list.length === 0
            ? ''
            : count !== undefined
              ? t('table.range', { from: f.number(from), to: f.number(to), total: f.number(count) })
              : t('table.rangeOpen', { from: f.number(from), to: f.number(to) })}
        </Text>
        {onRowOpen && (
          <Text size="xsmall" className="text-ui-fg-muted hidden md:block" id={`${testId ?? 'table'}-keys`}>
            {t('table.keyboardHint')}
          </Text>
        )}
        <div className="flex items-center gap-x-2">
          <Text size="small" className="text-ui-fg-muted">
            {t('table.page', { page: f.number(query.page) })}
          </Text>
          <Button
            size="small"
            variant="secondary"
            disabled={query.page <= 1 || isLoading}
            onClick={() => query.setPage(query.page - 1)}
            data-testid="table-previous"
          >
            {t('table.previous')}
          </Button>
          <Button
            size="small"
            variant="secondary"
            disabled={!hasNext || isLoading}
            onClick={() => query.setPage(query.page + 1)}
            data-testid="table-next"
          >
            {t('table.next')}
          </Button>
        </div>
      </div>
    </div>
  );
}
