import { useTranslation } from 'react-i18next';
import { Page } from '../../components/layout/page';
import { CommerceSyncPanel } from '../connectors/sync-panels';
import { ProductTable } from '../products/product-table';

/**
 * /app/sales-channel-products: what the webshop sells (the sellable products) and the commerce
 * sync that copies them into the shop, with its progress.
 */
export function Component() {
  const { t } = useTranslation();
  return (
    <Page
      title={t('nav.items.salesChannelProducts')}
      description={t('salesChannelProducts.description')}
      testId="sales-channel-products"
      sections={<CommerceSyncPanel />}
    >
      <ProductTable sellableOnly openPath="/products" />
    </Page>
  );
}
