import { useLocation } from 'react-router';
import { NotFound } from '../../components/common/not-found';
import { usePageTitle } from '../../components/layout/page';
import { useTranslation } from 'react-i18next';

/** Any /app path no route knows. */
export function Component() {
  const { t } = useTranslation();
  usePageTitle(t('errors.notFoundTitle'));
  return <NotFound path={`/app${useLocation().pathname}`} />;
}
