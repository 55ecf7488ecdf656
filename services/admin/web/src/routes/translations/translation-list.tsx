import { Badge, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { ContentTable } from '../../components/content/content-table';
import type { TranslationRecord } from '../../components/content/content-types';
import { Page } from '../../components/layout/page';
import { ReadOnlyNote } from '../../components/operations/read-only-note';

const sources = [
  'cms_page',
  'cms_menu_item',
  'cms_footer_section',
  'cms_footer_link',
  'category',
  'color',
  'payment_term',
] as const;

function Cell({ text }: { text: string | null }) {
  return text ? (
    <span className="block max-w-[240px] truncate" title={text}>
      {text}
    </span>
  ) : (
    <Badge size="2xsmall" color="orange">
      —
    </Badge>
  );
}

/** /app/translations: every translatable text with its Dutch, English and German, read-only. */
export function Component() {
  const { t } = useTranslation();
  return (
    <Page title={t('nav.items.translations')} testId="translations">
      <ReadOnlyNote>{t('content.readOnly')}</ReadOnlyNote>
      <ContentTable<TranslationRecord, 'source' | 'missing'>
        list="translations"
        rowKey={(r) => `${r.source}-${r.record_id}-${r.field}`}
        testId="translation-table"
        filters={[
          {
            key: 'source',
            label: t('content.source'),
            options: sources.map((s) => ({ value: s, label: t(`content.sources.${s}`) })),
          },
          {
            key: 'missing',
            label: t('content.missing'),
            options: [
              { value: 'any', label: t('content.missingAny') },
              { value: 'en', label: t('content.missingEn') },
              { value: 'de', label: t('content.missingDe') },
            ],
          },
        ]}
        columns={[
          {
            id: 'source',
            header: t('content.source'),
            cell: (r) => (
              <div className="flex flex-col">
                <Text size="small" leading="compact">
                  {t(`content.sources.${r.source}`)}
                </Text>
                <Text size="xsmall" className="text-ui-fg-muted font-mono" leading="compact">
                  #{r.record_id} · {r.field}
                </Text>
              </div>
            ),
          },
          { id: 'nl', header: 'NL', cell: (r) => <Cell text={r.nl} /> },
          { id: 'en', header: 'EN', cell: (r) => <Cell text={r.en} /> },
          { id: 'de', header: 'DE', cell: (r) => <Cell text={r.de} /> },
        ]}
      />
    </Page>
  );
}
