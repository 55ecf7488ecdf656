import { Badge, StatusBadge, Table } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ErrorPanel } from '../../components/common/error-boundary';
import { SectionSpinner } from '../../components/common/full-page-spinner';
import { NotFound } from '../../components/common/not-found';
import { Page, PageSection } from '../../components/layout/page';
import { DetailList } from '../../components/operations/detail-list';
import { useProducts } from '../../hooks/api/products';
import { useFormat } from '../../hooks/use-format';
import { totalStock } from './product-table';

/** /app/products/:sku: one product with its variants and stock, scale prices and print positions. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const { sku = '' } = useParams();
  // The catalog's search takes a SKU prefix: the product is the one whose SKU is exactly this.
  const found = useProducts({ limit: 20, offset: 0, q: sku });
  if (found.isPending) return <SectionSpinner />;
  if (found.isError) return <ErrorPanel error={found.error} onRetry={() => void found.refetch()} />;
  const p = found.data.data.find((x) => x.sku === sku);
  if (!p) return <NotFound path={sku} />;
  return (
    <Page
      title={(f.language === 'en' ? p.name_en : null) ?? p.name_nl}
      description={<span className="font-mono">{p.sku}</span>}
      testId="product-detail"
      sections={
        <>
          <PageSection title={t('products.variants')}>
            <Table>
              <Table.Header>
                <Table.Row>
                  <Table.HeaderCell>{t('products.sku')}</Table.HeaderCell>
                  <Table.HeaderCell>{t('products.colour')}</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">{t('products.stock')}</Table.HeaderCell>
                  <Table.HeaderCell>{t('ops.status')}</Table.HeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {p.variants.map((v) => (
                  <Table.Row key={v.id}>
                    <Table.Cell className="font-mono">{v.sku}</Table.Cell>
                    <Table.Cell>
                      <span className="flex items-center gap-x-2">
                        <span
                          className="border-ui-border-base size-3 rounded-full border"
                          style={{ background: v.hex ?? 'transparent' }}
                          aria-hidden
                        />
                        {v.color_name ?? v.color_code ?? '—'}
                      </span>
                    </Table.Cell>
                    <Table.Cell className="text-right tabular-nums">{f.number(v.stock)}</Table.Cell>
                    <Table.Cell>
                      <StatusBadge color={v.is_active ? 'green' : 'grey'}>
                        {v.is_active ? t('ops.active') : t('ops.inactive')}
                      </StatusBadge>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table>
          </PageSection>
          <PageSection title={t('products.priceTiers')}>
            <Table>
              <Table.Header>
                <Table.Row>
                  <Table.HeaderCell className="text-right">{t('products.fromQuantity')}</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">{t('products.price')}</Table.HeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {p.price_tiers.map((tier) => (
                  <Table.Row key={tier.min_quantity}>
                    <Table.Cell className="text-right tabular-nums">{f.number(tier.min_quantity)}</Table.Cell>
                    <Table.Cell className="text-right tabular-nums">{f.money(tier.price)}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table>
          </PageSection>
          <PageSection title={t('products.printPositions')}>
            <Table>
              <Table.Header>
                <Table.Row>
                  <Table.HeaderCell>{t('products.position')}</Table.HeaderCell>
                  <Table.HeaderCell>{t('products.printArea')}</Table.HeaderCell>
                  <Table.HeaderCell>{t('products.techniques')}</Table.HeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {p.print_positions.map((pp) => (
                  <Table.Row key={pp.id}>
                    <Table.Cell>
                      <span className="font-mono">{pp.code}</span> {pp.name ?? ''}
                    </Table.Cell>
                    <Table.Cell>{pp.print_area ?? '—'}</Table.Cell>
                    <Table.Cell className="whitespace-normal">
                      <span className="flex flex-wrap gap-1">
                        {pp.techniques.map((x) => (
                          <Badge
                            key={x.id}
                            size="2xsmall"
                            color={x.is_default ? 'blue' : 'grey'}
                            title={x.name}
                          >
                            {x.code}
                            {x.max_colours ? ` · ${x.max_colours}` : ''}
                          </Badge>
                        ))}
                      </span>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table>
          </PageSection>
        </>
      }
    >
      <DetailList
        rows={[
          {
            label: t('products.status'),
            value: (
              <StatusBadge color={p.is_sellable ? 'green' : 'grey'}>
                {p.is_sellable ? t('products.sellable') : t('products.notSellable')} · {p.status}
              </StatusBadge>
            ),
          },
          { label: t('products.supplier'), value: p.supplier_code },
          { label: t('products.price100'), value: f.money(p.retail_price_100) },
          { label: t('products.minOrder'), value: f.number(p.min_order_quantity) },
          {
            label: t('products.vatRate'),
            value: p.vat_rate === null ? t('products.vatStandard') : f.percent(p.vat_rate),
          },
          { label: t('products.stock'), value: f.number(totalStock(p)) },
        ]}
      />
    </Page>
  );
}
