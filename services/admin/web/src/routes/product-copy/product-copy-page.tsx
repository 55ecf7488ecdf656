import { useTranslation } from 'react-i18next';
import { Page } from '../../components/layout/page';
import { TenantUpdatePanel } from '../connectors/sync-panels';

/**
 * /app/product-copy: the tenant update, which copies the master's catalog into chosen tenants.
 * On the master's host it can be started and followed; elsewhere the page says where it runs.
 */
export function Component() {
  const { t } = useTranslation();
  return (
    <Page
      title={t('nav.items.productCopy')}
      description={t('productCopy.description')}
      testId="product-copy"
      sections={<TenantUpdatePanel />}
    />
  );
}
