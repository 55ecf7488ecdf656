import { StatusBadge, Text } from '@medusajs/ui';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../../components/layout/page';
import { DataTable, type DataTableColumn } from '../../../components/table/data-table';
import { useDataTableQuery } from '../../../components/table/use-data-table-query';
import { useFeatures } from '../../../hooks/api/features';
import {
  featuresWithoutItem,
  type SidebarGroup,
  sidebarGroups,
  type SidebarItem,
  sidebarItems,
} from '../../../navigation/sidebar-items';

interface Row {
  feature: string;
  group: SidebarGroup;
  label: string;
  item: SidebarItem | null;
  licensed: boolean;
}

type Filter = 'status' | 'group';

/**
 * /app/settings/licenses: the 31 features of the catalog and whether this tenant has them, with
 * search, filters and pages (the list is small and already loaded, so it pages in the browser;
 * lists of the API page on the server with the same table). Enter or a click opens the page.
 */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const features = useFeatures();
  const query = useDataTableQuery<Filter>({ pageSize: 10, filterKeys: ['status', 'group'] });

  const rows = useMemo(() => {
    const data = features.data;
    if (!data) return undefined;
    const enabled = new Set(data.features);
    const all: Row[] = [
      ...sidebarItems.map((i) => ({
        feature: i.feature,
        group: i.group,
        label: t(`nav.items.${i.label}`),
        item: i,
        licensed: enabled.has(i.feature),
      })),
      ...featuresWithoutItem.map((f) => ({
        feature: f.feature,
        group: f.group,
        label: t(`licenses.features.${f.label}`),
        item: null,
        licensed: enabled.has(f.feature),
      })),
    ];
    return all.sort((a, b) => sidebarGroups.indexOf(a.group) - sidebarGroups.indexOf(b.group));
  }, [features.data, t]);

  const { q, filters } = query;
  const matching = useMemo(
    () =>
      (rows ?? []).filter(
        (r) =>
          (!q || r.label.toLowerCase().includes(q.toLowerCase()) || r.feature.includes(q.toLowerCase())) &&
          (!filters.status || (filters.status === 'licensed') === r.licensed) &&
          (!filters.group || r.group === filters.group),
      ),
    [rows, q, filters],
  );

  const columns: DataTableColumn<Row>[] = [
    {
      id: 'feature',
      header: t('licenses.feature'),
      cell: (r) => (
        <div className="flex items-center gap-x-2">
          {r.item ? <r.item.icon className="text-ui-fg-subtle" /> : <span className="size-[15px]" />}
          <Text size="small" weight="plus" leading="compact">
            {r.label}
          </Text>
          <Text size="xsmall" className="text-ui-fg-muted font-mono">
            {r.feature}
          </Text>
        </div>
      ),
    },
    { id: 'group', header: t('licenses.group'), cell: (r) => t(`nav.groups.${r.group}`) },
    {
      id: 'status',
      header: t('licenses.status'),
      cell: (r) => (
        <StatusBadge color={r.licensed ? 'green' : 'grey'}>
          {r.licensed ? t('licenses.licensed') : t('licenses.notLicensed')}
        </StatusBadge>
      ),
    },
  ];

  return (
    <Page
      title={t('licenses.title')}
      description={
        features.data?.status.all_features_mode ? t('licenses.allFeatures') : t('licenses.description')
      }
      testId="licenses"
    >
      <DataTable<Row, Filter>
        columns={columns}
        rows={rows && matching.slice(query.offset, query.offset + query.pageSize)}
        count={matching.length}
        isLoading={features.isPending}
        error={features.error}
        onRetry={() => void features.refetch()}
        rowKey={(r) => r.feature}
        onRowOpen={(r) => {
          if (r.item) void navigate(r.item.path);
        }}
        query={query}
        filters={[
          {
            key: 'status',
            label: t('licenses.status'),
            options: [
              { value: 'licensed', label: t('licenses.licensed') },
              { value: 'unlicensed', label: t('licenses.notLicensed') },
            ],
          },
          {
            key: 'group',
            label: t('licenses.group'),
            options: sidebarGroups.map((g) => ({ value: g, label: t(`nav.groups.${g}`) })),
          },
        ]}
        testId="license-table"
      />
    </Page>
  );
}
