import { Badge, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { ContentTable } from '../../components/content/content-table';
import type { ModuleRecord } from '../../components/content/content-types';
import { Page } from '../../components/layout/page';
import { ActiveBadge } from '../../components/operations/active-badge';
import { ReadOnlyNote } from '../../components/operations/read-only-note';
import { useFormat } from '../../hooks/use-format';

/** /app/cms-modules: the modules and how many tenants enable each, read-only. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  return (
    <Page title={t('nav.items.cmsModules')} testId="cms-modules">
      <ReadOnlyNote>{t('content.readOnly')}</ReadOnlyNote>
      <ContentTable<ModuleRecord>
        list="modules"
        rowKey={(m) => m.id}
        testId="module-table"
        columns={[
          { id: 'code', header: t('ops.code'), cell: (m) => <span className="font-mono">{m.code}</span> },
          {
            id: 'name',
            header: t('ops.name'),
            cell: (m) => (
              <div className="flex flex-col">
                <Text size="small" weight="plus" leading="compact">
                  {m.name}
                </Text>
                {m.description && (
                  <Text size="xsmall" className="text-ui-fg-muted" leading="compact">
                    {m.description}
                  </Text>
                )}
              </div>
            ),
          },
          { id: 'feature', header: t('content.feature'), cell: (m) => m.feature_key ?? '—' },
          { id: 'version', header: t('content.version'), cell: (m) => m.version ?? '—' },
          {
            id: 'core',
            header: t('content.core'),
            cell: (m) => (m.is_core ? <Badge size="2xsmall">{t('content.core')}</Badge> : ''),
          },
          {
            id: 'enabled',
            header: t('content.enabled'),
            align: 'right',
            cell: (m) => f.number(m.enabled_count),
          },
          { id: 'active', header: t('ops.status'), cell: (m) => <ActiveBadge active={m.is_active} /> },
        ]}
      />
    </Page>
  );
}
