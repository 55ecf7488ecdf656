import { createTierBody, updateTierBody } from '@aplt/service-catalog/schemas/technique-pricing';
import { Button, Drawer, Input, toast } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ErrorAlert } from '../../components/common/error-alert';
import { Form, FormField, TextField, useZodForm } from '../../components/forms/form';
import { type Tier, useCreateTier, useUpdateTier } from '../../hooks/api/technique-pricing';

/** The form holds text boxes; empty optional boxes mean "no value" (null), numbers are typed. */
const tierForm = z.object({
  min_quantity: z
    .string()
    .trim()
    .regex(/^\d{1,8}$/, 'validation.required'),
  colours: z.string().trim(),
  area_from: z.string().trim(),
  area_to: z.string().trim(),
  price_per_unit: z.string().trim(),
  next_colour_price: z.string().trim(),
  setup_cost: z.string().trim(),
  setup_repeat_cost: z.string().trim(),
  small_order_charge: z.string().trim(),
  currency: z.string().trim(),
  valid_from: z.string().trim(),
  valid_until: z.string().trim(),
});
type TierForm = z.infer<typeof tierForm>;

const orNull = (v: string) => (v === '' ? null : v);
/** The body the API takes, checked with its own schema before it is sent. */
function toBody(v: TierForm) {
  return {
    min_quantity: Number(v.min_quantity),
    colours: v.colours === '' ? null : Number(v.colours),
    area_from: orNull(v.area_from),
    area_to: orNull(v.area_to),
    price_per_unit: v.price_per_unit,
    next_colour_price: orNull(v.next_colour_price),
    setup_cost: v.setup_cost === '' ? '0.00' : v.setup_cost,
    setup_repeat_cost: orNull(v.setup_repeat_cost),
    small_order_charge: orNull(v.small_order_charge),
    currency: v.currency || 'EUR',
    valid_from: orNull(v.valid_from),
    valid_until: orNull(v.valid_until),
  };
}

const fromTier = (tier?: Tier): TierForm => ({
  min_quantity: tier ? String(tier.min_quantity) : '',
  colours: tier?.colours === null || tier?.colours === undefined ? '' : String(tier.colours),
  area_from: tier?.area_from ?? '',
  area_to: tier?.area_to ?? '',
  price_per_unit: tier?.price_per_unit ?? '',
  next_colour_price: tier?.next_colour_price ?? '',
  setup_cost: tier?.setup_cost ?? '',
  setup_repeat_cost: tier?.setup_repeat_cost ?? '',
  small_order_charge: tier?.small_order_charge ?? '',
  currency: tier?.currency ?? 'EUR',
  valid_from: tier?.valid_from ?? '',
  valid_until: tier?.valid_until ?? '',
});

/**
 * Add or change one price scale. The whole body goes through the API's schema (createTierBody or
 * updateTierBody) on submit: its messages land on the fields they name.
 */
export function TierDrawer({
  techniqueId,
  tier,
  onClose,
}: {
  techniqueId: number;
  tier?: Tier;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const create = useCreateTier(techniqueId);
  const update = useUpdateTier(techniqueId);
  const schema = tierForm.superRefine((v, ctx) => {
    const api = tier ? updateTierBody : createTierBody;
    const checked = api.safeParse(toBody(v));
    if (!checked.success)
      for (const issue of checked.error.issues)
        ctx.addIssue({
          code: 'custom',
          path: issue.path.length ? issue.path : ['price_per_unit'],
          message: issue.message,
        });
  });
  const form = useZodForm<TierForm, TierForm>(schema, fromTier(tier));
  const mutation = tier ? update : create;
  const submit = (v: TierForm) => {
    const done = {
      onSuccess: () => {
        toast.success(t('ops.saved'));
        onClose();
      },
    };
    if (tier)
      update.mutate({ tierId: tier.id, body: { ...toBody(v), expected_updated_at: tier.updated_at } }, done);
    else create.mutate(toBody(v), done);
  };
  const field = (name: keyof TierForm, label: string, type = 'text') => (
    <TextField<TierForm>
      name={name}
      label={label}
      type={type}
      inputMode={type === 'text' ? 'decimal' : undefined}
    />
  );
  return (
    <Drawer open onOpenChange={(o) => !o && onClose()}>
      <Drawer.Content data-testid="tier-drawer">
        <Form form={form} onSubmit={submit} className="flex h-full flex-col overflow-hidden">
          <Drawer.Header>
            <Drawer.Title>{tier ? t('techniques.editTier') : t('techniques.addTier')}</Drawer.Title>
          </Drawer.Header>
          <Drawer.Body className="flex flex-1 flex-col gap-y-4 overflow-y-auto">
            <div className="grid grid-cols-2 gap-4">
              <FormField<TierForm>
                name="min_quantity"
                label={t('techniques.minQuantity')}
                render={({ field: f, id, invalid, describedBy }) => (
                  <Input
                    id={id}
                    type="number"
                    min={1}
                    name={f.name}
                    ref={f.ref}
                    value={f.value}
                    onChange={f.onChange}
                    onBlur={f.onBlur}
                    aria-invalid={invalid}
                    aria-describedby={describedBy}
                    autoFocus
                  />
                )}
              />
              {field('colours', t('techniques.colours'), 'number')}
              {field('price_per_unit', t('techniques.pricePerUnit'))}
              {field('next_colour_price', t('techniques.nextColourPrice'))}
              {field('setup_cost', t('techniques.setupCost'))}
              {field('setup_repeat_cost', t('techniques.repeatSetupCost'))}
              {field('area_from', t('techniques.areaFrom'))}
              {field('area_to', t('techniques.areaTo'))}
              {field('small_order_charge', t('techniques.smallOrderCharge'))}
              {field('currency', t('techniques.currency'))}
              {field('valid_from', t('techniques.validFrom'), 'date')}
              {field('valid_until', t('techniques.validUntil'), 'date')}
            </div>
          </Drawer.Body>
          <Drawer.Footer className="flex-col items-stretch gap-y-2">
            <ErrorAlert error={mutation.error} />
            <div className="flex justify-end gap-x-2">
              <Button size="small" variant="secondary" type="button" onClick={onClose}>
                {t('general.cancel')}
              </Button>
              <Button size="small" type="submit" isLoading={mutation.isPending} data-testid="tier-save">
                {t('general.save')}
              </Button>
            </div>
          </Drawer.Footer>
        </Form>
      </Drawer.Content>
    </Drawer>
  );
}
