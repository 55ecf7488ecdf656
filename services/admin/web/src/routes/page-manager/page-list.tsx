import { Badge, StatusBadge, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { ContentTable } from '../../components/content/content-table';
import type { PageRecord } from '../../components/content/content-types';
import { Page } from '../../components/layout/page';
import { ReadOnlyNote } from '../../components/operations/read-only-note';
import { useFormat } from '../../hooks/use-format';

const statusColor = { draft: 'grey', published: 'green', archived: 'orange' } as const;
const statuses = ['draft', 'published', 'archived'] as const;

/** /app/page-manager: the CMS pages (without their bodies), read-only. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  return (
    <Page title={t('nav.items.pageManager')} testId="page-manager">
      <ReadOnlyNote>{t('content.readOnly')}</ReadOnlyNote>
      <ContentTable<PageRecord, 'status'>
        list="pages"
        rowKey={(p) => p.id}
        testId="page-table"
        filters={[
          {
            key: 'status',
            label: t('ops.status'),
            options: statuses.map((s) => ({ value: s, label: t(`content.pageStatus.${s}`) })),
          },
        ]}
        columns={[
          {
            id: 'brand',
            header: t('content.brand'),
            cell: (p) => <Badge size="2xsmall">{p.brand_code}</Badge>,
          },
          {
            id: 'title',
            header: t('content.title'),
            cell: (p) => (
              <div className="flex flex-col">
                <Text size="small" weight="plus" leading="compact">
                  {(f.language === 'en' ? p.title_en : null) ?? p.title_nl}
                </Text>
                <Text size="xsmall" className="text-ui-fg-muted font-mono" leading="compact">
                  /{p.slug}
                </Text>
              </div>
            ),
          },
          { id: 'template', header: t('content.template'), cell: (p) => p.template },
          {
            id: 'status',
            header: t('ops.status'),
            cell: (p) => (
              <StatusBadge color={statusColor[p.status as keyof typeof statusColor] ?? 'grey'}>
                {statuses.includes(p.status as (typeof statuses)[number])
                  ? t(`content.pageStatus.${p.status as (typeof statuses)[number]}`)
                  : p.status}
              </StatusBadge>
            ),
          },
          { id: 'published', header: t('content.published'), cell: (p) => f.date(p.published_at) },
          {
            id: 'length',
            header: t('content.length'),
            align: 'right',
            cell: (p) =>
              `${f.number(p.content_length.nl)} / ${f.number(p.content_length.en)} / ${f.number(p.content_length.de)}`,
          },
        ]}
      />
    </Page>
  );
}
