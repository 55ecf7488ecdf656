import { LockClosedSolid } from '@medusajs/icons';
import { Button, Container, Heading, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { SidebarItem } from '../../navigation/sidebar-items';
import { usePageTitle } from '../layout/page';

/** The page of an item whose feature this tenant has not licensed (its sidebar entry is hidden). */
export function NotLicensed({ item }: { item: SidebarItem }) {
  const { t } = useTranslation();
  const label = t(`nav.items.${item.label}`);
  usePageTitle(t('notLicensed.title'));
  return (
    <Container
      className="flex flex-col items-center gap-y-4 px-6 py-16 text-center"
      data-testid="not-licensed"
      data-feature={item.feature}
    >
      <div className="bg-ui-bg-component shadow-borders-base flex size-10 items-center justify-center rounded-lg">
        <LockClosedSolid className="text-ui-fg-subtle" />
      </div>
      <div className="flex max-w-md flex-col gap-y-1">
        <Heading level="h1">{t('notLicensed.title')}</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {t('notLicensed.description', { feature: label })}
        </Text>
        <Text size="small" className="text-ui-fg-muted">
          {t('notLicensed.hint')}
        </Text>
      </div>
      <Button size="small" variant="secondary" asChild>
        <Link to="/">{t('notLicensed.home')}</Link>
      </Button>
    </Container>
  );
}
