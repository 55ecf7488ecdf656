import { MagnifyingGlass } from '@medusajs/icons';
import { Button, Container } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from './empty-state';

export function NotFound({ path }: { path: string }) {
  const { t } = useTranslation();
  return (
    <Container className="p-0" data-testid="not-found">
      <EmptyState
        icon={MagnifyingGlass}
        title={t('errors.notFoundTitle')}
        description={t('errors.notFound', { path })}
        action={
          <Button size="small" variant="secondary" asChild>
            <Link to="/">{t('notLicensed.home')}</Link>
          </Button>
        }
      />
    </Container>
  );
}
