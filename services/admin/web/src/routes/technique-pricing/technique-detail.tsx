import { PencilSquare, Plus, Trash } from '@medusajs/icons';
import { Button, IconButton, Table, toast, usePrompt } from '@medusajs/ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { EmptyState } from '../../components/common/empty-state';
import { ErrorAlert } from '../../components/common/error-alert';
import { ErrorPanel } from '../../components/common/error-boundary';
import { SectionSpinner } from '../../components/common/full-page-spinner';
import { Page, PageSection } from '../../components/layout/page';
import { ActiveBadge } from '../../components/operations/active-badge';
import { DetailList } from '../../components/operations/detail-list';
import { ReadOnlyNote } from '../../components/operations/read-only-note';
import { type Tier, useDeleteTier, useTechnique } from '../../hooks/api/technique-pricing';
import { useFormat } from '../../hooks/use-format';
import { techniqueName } from './technique-list';
import { TierDrawer } from './tier-drawer';

/** /app/technique-pricing/:id: one technique, its setup cost and its scales (changed on the master). */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const prompt = usePrompt();
  const { id = '' } = useParams();
  const technique = useTechnique(id);
  const remove = useDeleteTier(id);
  const [editing, setEditing] = useState<Tier | 'new' | null>(null);
  if (technique.isPending) return <SectionSpinner />;
  if (technique.isError)
    return <ErrorPanel error={technique.error} onRetry={() => void technique.refetch()} />;
  const x = technique.data;

  const onDelete = async (tier: Tier) => {
    const ok = await prompt({
      title: t('techniques.deleteTier'),
      description: t('techniques.deleteTierConfirm', { quantity: f.number(tier.min_quantity) }),
      confirmText: t('techniques.deleteTier'),
      cancelText: t('general.cancel'),
    });
    if (ok) remove.mutate(tier.id, { onSuccess: () => toast.success(t('ops.saved')) });
  };
  const area = (tier: Tier) =>
    tier.area_from === null && tier.area_to === null
      ? t('techniques.anyArea')
      : `${tier.area_from ?? '0'} – ${tier.area_to ?? '∞'} cm²`;

  return (
    <Page
      title={techniqueName(x, f.language)}
      description={<span className="font-mono">{x.code}</span>}
      testId="technique-detail"
      sections={
        <PageSection
          title={t('techniques.tiers')}
          actions={
            x.editable && (
              <Button
                size="small"
                variant="secondary"
                onClick={() => setEditing('new')}
                data-testid="tier-add"
              >
                <Plus />
                {t('techniques.addTier')}
              </Button>
            )
          }
        >
          {remove.error ? (
            <div className="px-6 py-3">
              <ErrorAlert error={remove.error} />
            </div>
          ) : null}
          {x.tiers.length === 0 ? (
            <EmptyState title={t('techniques.noTiers')} />
          ) : (
            <div className="overflow-x-auto">
              <Table data-testid="tier-table">
                <Table.Header>
                  <Table.Row>
                    <Table.HeaderCell className="text-right">{t('techniques.minQuantity')}</Table.HeaderCell>
                    <Table.HeaderCell>{t('techniques.colours')}</Table.HeaderCell>
                    <Table.HeaderCell>{t('techniques.area')}</Table.HeaderCell>
                    <Table.HeaderCell className="text-right">{t('techniques.pricePerUnit')}</Table.HeaderCell>
                    <Table.HeaderCell className="text-right">
                      {t('techniques.nextColourPrice')}
                    </Table.HeaderCell>
                    <Table.HeaderCell className="text-right">{t('techniques.setupCost')}</Table.HeaderCell>
                    <Table.HeaderCell>{t('techniques.validFrom')}</Table.HeaderCell>
                    {x.editable && <Table.HeaderCell />}
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {x.tiers.map((tier) => (
                    <Table.Row key={tier.id} data-tier={tier.id}>
                      <Table.Cell className="text-right tabular-nums">
                        {f.number(tier.min_quantity)}
                      </Table.Cell>
                      <Table.Cell>{tier.colours ?? t('techniques.anyColours')}</Table.Cell>
                      <Table.Cell>{area(tier)}</Table.Cell>
                      <Table.Cell className="text-right tabular-nums">
                        {f.money(tier.price_per_unit, tier.currency)}
                      </Table.Cell>
                      <Table.Cell className="text-right tabular-nums">
                        {f.money(tier.next_colour_price, tier.currency)}
                      </Table.Cell>
                      <Table.Cell className="text-right tabular-nums">
                        {f.money(tier.setup_cost, tier.currency)}
                      </Table.Cell>
                      <Table.Cell>
                        {tier.valid_from || tier.valid_until
                          ? `${f.date(tier.valid_from)} – ${f.date(tier.valid_until)}`
                          : '—'}
                      </Table.Cell>
                      {x.editable && (
                        <Table.Cell className="text-right">
                          <span className="inline-flex gap-x-1">
                            <IconButton
                              size="small"
                              variant="transparent"
                              aria-label={t('techniques.editTier')}
                              onClick={() => setEditing(tier)}
                            >
                              <PencilSquare />
                            </IconButton>
                            <IconButton
                              size="small"
                              variant="transparent"
                              aria-label={t('techniques.deleteTier')}
                              onClick={() => void onDelete(tier)}
                            >
                              <Trash />
                            </IconButton>
                          </span>
                        </Table.Cell>
                      )}
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table>
            </div>
          )}
        </PageSection>
      }
    >
      {!x.editable && <ReadOnlyNote>{t('ops.readOnlyMaster')}</ReadOnlyNote>}
      <DetailList
        rows={[
          { label: t('ops.status'), value: <ActiveBadge active={x.is_active} /> },
          { label: t('techniques.supplier'), value: x.supplier_code },
          { label: t('techniques.pricingType'), value: x.pricing_type },
          {
            label: t('techniques.maxColours'),
            value: x.max_colours === null ? null : f.number(x.max_colours),
          },
          { label: t('techniques.fullColour'), value: x.full_colour ? t('ops.yes') : t('ops.no') },
          {
            label: t('techniques.setupCost'),
            value: x.setup_cost
              ? [
                  f.money(x.setup_cost.setup_cost),
                  x.setup_cost.per_colour ? t('techniques.perColour') : null,
                  x.setup_cost.per_position ? t('techniques.perPosition') : null,
                ]
                  .filter(Boolean)
                  .join(' ')
              : null,
          },
          {
            label: t('techniques.repeatSetupCost'),
            value: x.setup_cost?.repeat_setup_cost ? f.money(x.setup_cost.repeat_setup_cost) : null,
          },
          { label: t('techniques.productSetupCosts'), value: f.number(x.product_setup_costs) },
        ]}
      />
      {editing && (
        <TierDrawer
          techniqueId={x.id}
          tier={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Page>
  );
}
