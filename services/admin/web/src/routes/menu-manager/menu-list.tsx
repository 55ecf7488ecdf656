import type { ReactNode } from 'react';
import { Badge, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { ContentTable } from '../../components/content/content-table';
import type { MenuRecord } from '../../components/content/content-types';
import { Page } from '../../components/layout/page';
import { ActiveBadge } from '../../components/operations/active-badge';
import { ReadOnlyNote } from '../../components/operations/read-only-note';

const locations = ['header', 'footer', 'sidebar', 'mobile', 'other'] as const;

/** The menu's items as an indented tree (parent_id builds it). */
function MenuTree({ items }: { items: MenuRecord['items'] }) {
  const children = (parent: number | null, depth: number): ReactNode[] =>
    items
      .filter((i) => i.parent_id === parent)
      .flatMap((i) => [
        <li
          key={i.id}
          style={{ paddingLeft: depth * 12 }}
          className={i.is_active ? '' : 'text-ui-fg-muted line-through'}
        >
          {i.label_nl}
          {i.url && <span className="text-ui-fg-muted font-mono"> {i.url}</span>}
        </li>,
        ...children(i.id, depth + 1),
      ]);
  return <ul className="text-ui-fg-subtle flex flex-col gap-y-0.5 py-1 text-xs">{children(null, 0)}</ul>;
}

/** /app/menu-manager: the menus with every item, read-only. */
export function Component() {
  const { t } = useTranslation();
  return (
    <Page title={t('nav.items.menuManager')} testId="menu-manager">
      <ReadOnlyNote>{t('content.readOnly')}</ReadOnlyNote>
      <ContentTable<MenuRecord, 'location'>
        list="menus"
        rowKey={(m) => m.id}
        search={false}
        testId="menu-table"
        filters={[
          {
            key: 'location',
            label: t('content.location'),
            options: locations.map((l) => ({ value: l, label: t(`content.locations.${l}`) })),
          },
        ]}
        columns={[
          {
            id: 'brand',
            header: t('content.brand'),
            cell: (m) => <Badge size="2xsmall">{m.brand_code}</Badge>,
          },
          {
            id: 'name',
            header: t('ops.name'),
            cell: (m) => (
              <div className="flex flex-col">
                <Text size="small" weight="plus" leading="compact">
                  {m.name}
                </Text>
                <Text size="xsmall" className="text-ui-fg-muted font-mono" leading="compact">
                  {m.code}
                </Text>
              </div>
            ),
          },
          {
            id: 'location',
            header: t('content.location'),
            cell: (m) =>
              locations.includes(m.location as (typeof locations)[number])
                ? t(`content.locations.${m.location as (typeof locations)[number]}`)
                : m.location,
          },
          {
            id: 'items',
            header: t('content.items'),
            className: 'whitespace-normal',
            cell: (m) => <MenuTree items={m.items} />,
          },
          { id: 'active', header: t('ops.status'), cell: (m) => <ActiveBadge active={m.is_active} /> },
        ]}
      />
    </Page>
  );
}
