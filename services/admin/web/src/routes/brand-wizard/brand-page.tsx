import { Badge, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { ContentTable } from '../../components/content/content-table';
import type { BrandRecord } from '../../components/content/content-types';
import { Page } from '../../components/layout/page';
import { ActiveBadge } from '../../components/operations/active-badge';
import { ReadOnlyNote } from '../../components/operations/read-only-note';
import { useFormat } from '../../hooks/use-format';

/** /app/brand-wizard: the brands with their colour, domain and counts, read-only. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  return (
    <Page title={t('nav.items.brandWizard')} testId="brand-wizard">
      <ReadOnlyNote>{t('content.readOnly')}</ReadOnlyNote>
      <ContentTable<BrandRecord>
        list="brands"
        rowKey={(b) => b.id}
        testId="brand-table"
        columns={[
          { id: 'code', header: t('ops.code'), cell: (b) => <span className="font-mono">{b.code}</span> },
          {
            id: 'name',
            header: t('ops.name'),
            cell: (b) => (
              <span className="flex items-center gap-x-2">
                <span
                  className="border-ui-border-base size-4 shrink-0 rounded-full border"
                  style={{ background: b.primary_color ?? 'transparent' }}
                  aria-hidden
                />
                <Text size="small" weight="plus" leading="compact">
                  {b.name}
                </Text>
                {b.is_default && <Badge size="2xsmall">★</Badge>}
              </span>
            ),
          },
          { id: 'domain', header: t('content.domain'), cell: (b) => b.domain ?? '—' },
          {
            id: 'colour',
            header: t('content.colour'),
            cell: (b) => <span className="font-mono">{b.primary_color ?? '—'}</span>,
          },
          { id: 'language', header: t('content.language'), cell: (b) => b.default_language.toUpperCase() },
          {
            id: 'counts',
            header: t('content.counts'),
            align: 'right',
            cell: (b) =>
              `${f.number(b.settings_count)} / ${f.number(b.pages_count)} / ${f.number(b.menus_count)}`,
          },
          { id: 'active', header: t('ops.status'), cell: (b) => <ActiveBadge active={b.is_active} /> },
        ]}
      />
    </Page>
  );
}
