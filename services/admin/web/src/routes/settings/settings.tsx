import { CodeBranch, TriangleRightMini } from '@medusajs/icons';
import { Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSwitcher } from '../../components/common/language-switcher';
import { Page, PageSection } from '../../components/layout/page';

/** /app/settings: the language, and the settings areas (dev projects). */
export function Component() {
  const { t } = useTranslation();
  return (
    <Page
      title={t('settings.title')}
      description={t('settings.description')}
      testId="settings"
      sections={
        <PageSection title={t('nav.items.devProjects')}>
          <Link
            to="dev-projects"
            className="hover:bg-ui-bg-base-hover flex items-center gap-x-3 px-6 py-4 outline-none transition-colors focus-visible:bg-ui-bg-base-hover"
          >
            <CodeBranch className="text-ui-fg-subtle" />
            <Text size="small" className="text-ui-fg-subtle flex-1">
              {t('settings.devProjectsHint')}
            </Text>
            <TriangleRightMini className="text-ui-fg-muted" />
          </Link>
        </PageSection>
      }
    >
      <div className="flex flex-col gap-y-2 px-6 py-4">
        <Text size="small" weight="plus">
          {t('general.language')}
        </Text>
        <Text size="small" className="text-ui-fg-subtle">
          {t('settings.languageHint')}
        </Text>
        <LanguageSwitcher className="w-48" />
      </div>
    </Page>
  );
}
