import { CodeBranch, Key, TriangleRightMini } from '@medusajs/icons';
import { Text } from '@medusajs/ui';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSwitcher } from '../../components/common/language-switcher';
import { Page, PageSection } from '../../components/layout/page';

function SettingsLink({
  to,
  icon: Icon,
  text,
}: {
  to: string;
  icon: ComponentType<{ className?: string }>;
  text: string;
}) {
  return (
    <Link
      to={to}
      className="hover:bg-ui-bg-base-hover focus-visible:bg-ui-bg-base-hover flex items-center gap-x-3 px-6 py-4 outline-none transition-colors"
    >
      <Icon className="text-ui-fg-subtle" />
      <Text size="small" className="text-ui-fg-subtle flex-1">
        {text}
      </Text>
      <TriangleRightMini className="text-ui-fg-muted" />
    </Link>
  );
}

/** /app/settings: the language, and the settings areas (licenses, dev projects). */
export function Component() {
  const { t } = useTranslation();
  return (
    <Page
      title={t('settings.title')}
      description={t('settings.description')}
      testId="settings"
      sections={
        <>
          <PageSection title={t('nav.items.licenses')}>
            <SettingsLink to="licenses" icon={Key} text={t('settings.licensesHint')} />
          </PageSection>
          <PageSection title={t('nav.items.devProjects')}>
            <SettingsLink to="dev-projects" icon={CodeBranch} text={t('settings.devProjectsHint')} />
          </PageSection>
        </>
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
