import { Clock } from '@medusajs/icons';
import { Badge, Container } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { EmptyState } from './empty-state';
import { PageHeader, usePageTitle } from '../layout/page';

/**
 * SCAFFOLDING ONLY: the page of an area whose real pages are not built yet, so every visible
 * sidebar item opens a page. Each area's `routes.ts` replaces it with its list and detail pages.
 */
export function AreaPlaceholder({ title }: { title: string }) {
  const { t } = useTranslation();
  usePageTitle(title);
  return (
    <Container className="divide-y p-0" data-testid="area-placeholder">
      <PageHeader title={title} actions={<Badge size="2xsmall">{t('general.coming')}</Badge>} />
      <EmptyState
        icon={Clock}
        title={t('placeholder.description')}
        description={t('placeholder.hint', { area: title })}
      />
    </Container>
  );
}
