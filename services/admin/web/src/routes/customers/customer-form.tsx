import {
  createCustomerBody,
  customerLanguages,
  updateCustomerBody,
} from '@aplt/service-documents/schemas/customers';
import { Button, Drawer, Input, Select, Switch, Textarea, toast } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { ErrorAlert } from '../../components/common/error-alert';
import { Form, FormField, TextField, useZodForm } from '../../components/forms/form';
import { type CustomerDetail, useCreateCustomer, useUpdateCustomer } from '../../hooks/api/customers';

type CreateIn = z.input<typeof createCustomerBody>;
type UpdateIn = z.input<typeof updateCustomerBody>;

/** An empty number box means "no number given" (the service picks the next one on create). */
const withoutEmptyNumber = (v: unknown) =>
  v && typeof v === 'object' && (v as CreateIn).customer_number === ''
    ? { ...v, customer_number: undefined }
    : v;
const createForm = z.preprocess(
  withoutEmptyNumber,
  createCustomerBody,
) as unknown as typeof createCustomerBody;
const updateForm = z.preprocess(
  withoutEmptyNumber,
  updateCustomerBody,
) as unknown as typeof updateCustomerBody;

/** The customer's fields as the form holds them (strings; empty = no value). */
function formValues(c?: CustomerDetail): CreateIn {
  return {
    customer_number: c?.customer_number ?? '',
    company: c?.company ?? '',
    first_name: c?.first_name ?? '',
    last_name: c?.last_name ?? '',
    email: c?.email ?? '',
    phone: c?.phone ?? '',
    vat_number: c?.vat_number ?? '',
    coc_number: c?.coc_number ?? '',
    country: c?.country ?? 'NL',
    address_line1: c?.address_line1 ?? '',
    address_line2: c?.address_line2 ?? '',
    postal_code: c?.postal_code ?? '',
    city: c?.city ?? '',
    language: (c?.language as CreateIn['language']) ?? 'nl',
    payment_term_days: c?.payment_term_days ?? 30,
    notes: c?.notes ?? '',
    is_active: c?.is_active ?? true,
  };
}

function Fields({ create }: { create: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-y-4">
      <TextField<CreateIn>
        name="customer_number"
        label={t('customers.number')}
        hint={create ? t('customers.numberHint') : undefined}
        autoComplete="off"
      />
      <TextField<CreateIn> name="company" label={t('customers.company')} autoFocus />
      <div className="grid grid-cols-2 gap-x-4">
        <TextField<CreateIn> name="first_name" label={t('customers.firstName')} />
        <TextField<CreateIn> name="last_name" label={t('customers.lastName')} />
      </div>
      <TextField<CreateIn> name="email" type="email" label={t('customers.email')} />
      <TextField<CreateIn> name="phone" type="tel" label={t('customers.phone')} />
      <div className="grid grid-cols-2 gap-x-4">
        <TextField<CreateIn> name="vat_number" label={t('customers.vatNumber')} />
        <TextField<CreateIn> name="coc_number" label={t('customers.cocNumber')} />
      </div>
      <TextField<CreateIn> name="address_line1" label={t('customers.addressLine1')} />
      <TextField<CreateIn> name="address_line2" label={t('customers.addressLine2')} />
      <div className="grid grid-cols-3 gap-x-4">
        <TextField<CreateIn> name="postal_code" label={t('customers.postalCode')} />
        <TextField<CreateIn> name="city" label={t('customers.city')} />
        <TextField<CreateIn> name="country" label={t('customers.country')} maxLength={2} />
      </div>
      <div className="grid grid-cols-2 gap-x-4">
        <FormField<CreateIn>
          name="language"
          label={t('customers.language')}
          render={({ field, id }) => (
            <Select value={field.value as string} onValueChange={field.onChange}>
              <Select.Trigger id={id} ref={field.ref} onBlur={field.onBlur}>
                <Select.Value />
              </Select.Trigger>
              <Select.Content>
                {customerLanguages.map((l) => (
                  <Select.Item key={l} value={l}>
                    {l.toUpperCase()}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select>
          )}
        />
        <FormField<CreateIn>
          name="payment_term_days"
          label={t('customers.paymentTermDays')}
          render={({ field, id, invalid, describedBy }) => (
            <Input
              id={id}
              type="number"
              min={0}
              max={60}
              name={field.name}
              ref={field.ref}
              value={field.value === undefined || field.value === null ? '' : String(field.value)}
              onChange={(e) => field.onChange(e.target.value === '' ? undefined : Number(e.target.value))}
              onBlur={field.onBlur}
              aria-invalid={invalid}
              aria-describedby={describedBy}
            />
          )}
        />
      </div>
      <FormField<CreateIn>
        name="notes"
        label={t('customers.notes')}
        render={({ field, id, invalid, describedBy }) => (
          <Textarea
            id={id}
            name={field.name}
            ref={field.ref}
            rows={3}
            value={(field.value as string | null | undefined) ?? ''}
            onChange={field.onChange}
            onBlur={field.onBlur}
            aria-invalid={invalid}
            aria-describedby={describedBy}
          />
        )}
      />
      <FormField<CreateIn>
        name="is_active"
        label={t('customers.isActive')}
        render={({ field, id }) => (
          <Switch id={id} checked={Boolean(field.value)} onCheckedChange={field.onChange} ref={field.ref} />
        )}
      />
    </div>
  );
}

/** Edit a customer in a drawer: the API's own schema checks the form before it is sent. */
export function EditCustomerDrawer({
  customer,
  open,
  onOpenChange,
}: {
  customer: CustomerDetail;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const update = useUpdateCustomer(customer.id);
  const form = useZodForm<UpdateIn, z.output<typeof updateCustomerBody>>(updateForm, {
    ...formValues(customer),
  } as UpdateIn);
  return (
    <Drawer open={open} onOpenChange={onOpenChange}>
      <Drawer.Content data-testid="customer-edit">
        <Form
          form={form}
          className="flex h-full flex-col overflow-hidden"
          onSubmit={(values) =>
            update.mutate(
              { ...values, expected_updated_at: customer.updated_at },
              {
                onSuccess: () => {
                  toast.success(t('ops.saved'));
                  onOpenChange(false);
                },
              },
            )
          }
        >
          <Drawer.Header>
            <Drawer.Title>{t('customers.editTitle')}</Drawer.Title>
          </Drawer.Header>
          <Drawer.Body className="flex-1 overflow-y-auto">
            <Fields create={false} />
          </Drawer.Body>
          <Drawer.Footer className="flex-col items-stretch gap-y-2">
            <ErrorAlert error={update.error} />
            <div className="flex justify-end gap-x-2">
              <Drawer.Close asChild>
                <Button size="small" variant="secondary" type="button">
                  {t('general.cancel')}
                </Button>
              </Drawer.Close>
              <Button size="small" type="submit" isLoading={update.isPending} data-testid="customer-save">
                {t('general.save')}
              </Button>
            </div>
          </Drawer.Footer>
        </Form>
      </Drawer.Content>
    </Drawer>
  );
}

/** A new customer in a drawer; on success its page opens. */
export function CreateCustomerDrawer({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateCustomer();
  const form = useZodForm<CreateIn, z.output<typeof createCustomerBody>>(createForm, formValues());
  return (
    <Drawer open={open} onOpenChange={onOpenChange}>
      <Drawer.Content data-testid="customer-create">
        <Form
          form={form}
          className="flex h-full flex-col overflow-hidden"
          onSubmit={(values) =>
            create.mutate(values, { onSuccess: (c) => void navigate(`/customers/${c.id}`) })
          }
        >
          <Drawer.Header>
            <Drawer.Title>{t('customers.createTitle')}</Drawer.Title>
          </Drawer.Header>
          <Drawer.Body className="flex-1 overflow-y-auto">
            <Fields create />
          </Drawer.Body>
          <Drawer.Footer className="flex-col items-stretch gap-y-2">
            <ErrorAlert error={create.error} />
            <div className="flex justify-end gap-x-2">
              <Drawer.Close asChild>
                <Button size="small" variant="secondary" type="button">
                  {t('general.cancel')}
                </Button>
              </Drawer.Close>
              <Button
                size="small"
                type="submit"
                isLoading={create.isPending}
                data-testid="customer-create-submit"
              >
                {t('general.save')}
              </Button>
            </div>
          </Drawer.Footer>
        </Form>
      </Drawer.Content>
    </Drawer>
  );
}
