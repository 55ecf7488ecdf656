import { Badge, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { ContentTable } from '../../components/content/content-table';
import type { CmsSetting, FooterSection } from '../../components/content/content-types';
import { Page, PageSection } from '../../components/layout/page';
import { ActiveBadge } from '../../components/operations/active-badge';
import { ReadOnlyNote } from '../../components/operations/read-only-note';
import { useFormat } from '../../hooks/use-format';

/** /app/cms: company data per brand and the footer, read-only. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  return (
    <Page
      title={t('nav.items.cms')}
      description={t('content.cmsSettings')}
      testId="cms"
      sections={
        <PageSection title={t('content.footer')}>
          <ContentTable<FooterSection>
            list="footer"
            prefix="footer_"
            search={false}
            rowKey={(s) => s.id}
            testId="footer-table"
            columns={[
              {
                id: 'brand',
                header: t('content.brand'),
                cell: (s) => <Badge size="2xsmall">{s.brand_code}</Badge>,
              },
              {
                id: 'title',
                header: t('content.title'),
                cell: (s) => (
                  <Text size="small" weight="plus" leading="compact">
                    {s.title_nl}
                  </Text>
                ),
              },
              {
                id: 'links',
                header: t('content.links'),
                cell: (s) => s.links.map((l) => l.label_nl).join(', ') || '—',
              },
              {
                id: 'order',
                header: t('content.order'),
                align: 'right',
                cell: (s) => f.number(s.sort_order),
              },
              { id: 'active', header: t('ops.status'), cell: (s) => <ActiveBadge active={s.is_active} /> },
            ]}
          />
        </PageSection>
      }
    >
      <ReadOnlyNote>{t('content.readOnly')}</ReadOnlyNote>
      <ContentTable<CmsSetting>
        list="cms-settings"
        rowKey={(s) => s.id}
        testId="cms-settings-table"
        columns={[
          {
            id: 'brand',
            header: t('content.brand'),
            cell: (s) => <Badge size="2xsmall">{s.brand_code}</Badge>,
          },
          { id: 'key', header: t('content.key'), cell: (s) => <span className="font-mono">{s.key}</span> },
          {
            id: 'value',
            header: t('content.value'),
            className: 'max-w-[360px]',
            cell: (s) => (
              <span className="block truncate" title={s.value ?? ''}>
                {s.value ?? '—'}
              </span>
            ),
          },
          { id: 'updated', header: t('ops.updatedAt'), cell: (s) => f.date(s.updated_at, 'datetime') },
        ]}
      />
    </Page>
  );
}
