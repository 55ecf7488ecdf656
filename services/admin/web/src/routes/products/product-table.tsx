import { Badge, StatusBadge, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DataTable, type DataTableColumn } from '../../components/table/data-table';
import { useDataTableQuery } from '../../components/table/use-data-table-query';
import { type Product, useProducts } from '../../hooks/api/products';
import { useFormat } from '../../hooks/use-format';

type Filter = 'supplier_code' | 'sellable';

export const totalStock = (p: Product) =>
  p.variants.some((v) => v.stock !== null) ? p.variants.reduce((n, v) => n + (v.stock ?? 0), 0) : null;

/**
 * The catalog's products, paged and searched on the server (SKU prefix or words). `sellableOnly`
 * fixes the list to what the webshop sells.
 */
export function ProductTable({
  sellableOnly = false,
  openPath = '/products',
}: {
  sellableOnly?: boolean;
  openPath?: string;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const navigate = useNavigate();
  const query = useDataTableQuery<Filter>({
    pageSize: 20,
    filterKeys: sellableOnly ? ['supplier_code'] : ['supplier_code', 'sellable'],
  });
  const list = useProducts({ ...query.apiQuery, ...(sellableOnly ? { sellable: 'true' } : {}) });
  const columns: DataTableColumn<Product>[] = [
    {
      id: 'product',
      header: t('products.name'),
      cell: (p) => (
        <div className="flex items-center gap-x-3">
          <div className="bg-ui-bg-component border-ui-border-base flex size-8 shrink-0 items-center justify-center overflow-hidden rounded border">
            {p.image_url ? (
              <img src={p.image_url} alt="" className="size-full object-cover" loading="lazy" />
            ) : null}
          </div>
          <div className="flex min-w-0 flex-col">
            <Text size="small" weight="plus" leading="compact" className="truncate">
              {(f.language === 'en' ? p.name_en : null) ?? p.name_nl}
            </Text>
            <Text size="xsmall" className="text-ui-fg-muted font-mono" leading="compact">
              {p.sku}
            </Text>
          </div>
        </div>
      ),
    },
    { id: 'supplier', header: t('products.supplier'), cell: (p) => p.supplier_code },
    {
      id: 'sellable',
      header: t('products.status'),
      cell: (p) => (
        <StatusBadge color={p.is_sellable ? 'green' : 'grey'}>
          {p.is_sellable ? t('products.sellable') : t('products.notSellable')}
        </StatusBadge>
      ),
    },
    {
      id: 'variants',
      header: t('products.variants'),
      align: 'right',
      cell: (p) => f.number(p.variants.length),
    },
    { id: 'stock', header: t('products.stock'), align: 'right', cell: (p) => f.number(totalStock(p)) },
    { id: 'price', header: t('products.price100'), align: 'right', cell: (p) => f.money(p.retail_price_100) },
    {
      id: 'techniques',
      header: t('products.techniques'),
      cell: (p) => (
        <span className="flex flex-wrap gap-1">
          {[...new Set(p.print_positions.flatMap((pp) => pp.techniques.map((x) => x.code)))]
            .slice(0, 4)
            .map((code) => (
              <Badge key={code} size="2xsmall">
                {code}
              </Badge>
            ))}
        </span>
      ),
    },
  ];
  return (
    <DataTable<Product, Filter>
      columns={columns}
      rows={list.data?.data}
      count={list.data?.count}
      isLoading={list.isPending}
      error={list.error}
      onRetry={() => void list.refetch()}
      rowKey={(p) => p.id}
      onRowOpen={(p) => void navigate(`${openPath}/${encodeURIComponent(p.sku)}`)}
      query={query}
      filters={[
        {
          key: 'supplier_code',
          label: t('products.supplier'),
          options: Array.from({ length: 9 }, (_, i) => `0${i + 1}`).map((c) => ({ value: c, label: c })),
        },
        ...(sellableOnly
          ? []
          : [
              {
                key: 'sellable' as const,
                label: t('products.sellable'),
                options: [
                  { value: 'true', label: t('products.sellableOnly') },
                  { value: 'false', label: t('products.notSellable') },
                ],
              },
            ]),
      ]}
      testId="product-table"
    />
  );
}
