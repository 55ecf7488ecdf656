import { Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../components/common/empty-state';
import { Page } from '../../components/layout/page';
import { useMe } from '../../hooks/api/auth';
import { useFeatures } from '../../hooks/api/features';
import { visibleSections } from '../../navigation/sidebar-items';

/** /app: a greeting and the licensed areas, grouped as in the sidebar. */
export function Component() {
  const { t } = useTranslation();
  const me = useMe().data?.user;
  const features = useFeatures();
  const sections = visibleSections(features.data?.sidebar_items ?? []);
  const name = me?.first_name || me?.email;

  return (
    <Page
      title={name ? t('home.title', { name }) : t('home.titleAnonymous')}
      description={t('home.description')}
      testId="home"
    >
      {features.isSuccess && sections.length === 0 ? (
        <EmptyState title={t('home.noFeatures')} />
      ) : (
        <div className="grid gap-6 px-6 py-4 sm:grid-cols-2 xl:grid-cols-3">
          {sections.map((section) => (
            <div key={section.group} className="flex flex-col gap-y-2">
              <Text size="xsmall" weight="plus" className="text-ui-fg-muted uppercase tracking-wide">
                {t(`nav.groups.${section.group}`)}
              </Text>
              <ul className="flex flex-col gap-y-1">
                {section.items.map((item) => (
                  <li key={item.id}>
                    <Link
                      to={item.path}
                      className="bg-ui-bg-component hover:bg-ui-bg-component-hover shadow-borders-base focus-visible:shadow-borders-focus flex items-center gap-x-3 rounded-lg px-3 py-2 outline-none transition-colors"
                    >
                      <item.icon className="text-ui-fg-subtle" />
                      <Text size="small" weight="plus" leading="compact">
                        {t(`nav.items.${item.label}`)}
                      </Text>
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
    </Page>
  );
}
