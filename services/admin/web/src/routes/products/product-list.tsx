import { useTranslation } from 'react-i18next';
import { Page } from '../../components/layout/page';
import { ProductTable } from './product-table';

/** /app/products: the tenant's catalog, sellable or not. */
export function Component() {
  const { t } = useTranslation();
  return (
    <Page title={t('nav.items.products')} description={t('products.description')} testId="products">
      <ProductTable />
    </Page>
  );
}
