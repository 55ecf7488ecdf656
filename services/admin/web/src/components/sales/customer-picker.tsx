import { Text } from '@medusajs/ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminQuery } from '../../hooks/api/use-admin-query';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { errorMessage } from '../../lib/api-error';
import { Combobox } from './combobox';

export interface CustomerOption {
  id: number;
  customer_number: string | null;
  company: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  country: string;
}

export const customerName = (c: CustomerOption) =>
  c.company || [c.first_name, c.last_name].filter(Boolean).join(' ') || c.email || `#${c.id}`;

/** The customers of the tenant, searched on the server (`/admin/aplt/customers?q=`). */
export function CustomerPicker({
  id,
  selected,
  invalid,
  describedBy,
  onSelect,
}: {
  id: string;
  selected: string;
  invalid: boolean;
  describedBy: string | undefined;
  onSelect: (c: CustomerOption) => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const q = useDebouncedValue(text, 250);
  const query = { q, limit: 8, offset: 0, is_active: 'true' };
  const customers = useAdminQuery<{ data: CustomerOption[] }>('/admin/aplt/customers', query, {
    queryKey: ['admin', 'customers', 'list', query],
    enabled: touched,
    staleTime: 60_000,
  });
  return (
    <Combobox<CustomerOption>
      id={id}
      label={t('sales.fields.customer')}
      placeholder={t('quotations.editor.customerPlaceholder')}
      selectedLabel={selected}
      items={customers.data?.data ?? []}
      isLoading={customers.isFetching}
      error={customers.error ? errorMessage(customers.error, t) : undefined}
      itemKey={(c) => c.id}
      invalid={invalid}
      describedBy={describedBy}
      onSearch={(value) => {
        setTouched(true);
        setText(value);
      }}
      onSelect={onSelect}
      testId="customer-picker"
      renderItem={(c) => (
        <div className="flex flex-col">
          <Text size="small" weight="plus" leading="compact">
            {customerName(c)}
          </Text>
          <Text size="xsmall" className="text-ui-fg-muted">
            {[c.customer_number, c.email, c.country].filter(Boolean).join(' · ')}
          </Text>
        </div>
      )}
    />
  );
}
