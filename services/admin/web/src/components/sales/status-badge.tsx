import { StatusBadge } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';

type Color = 'green' | 'red' | 'orange' | 'blue' | 'grey' | 'purple';

const colours: Record<string, Record<string, Color>> = {
  quotation: { open: 'blue', accepted: 'green', expired: 'grey', rejected: 'red' },
  order: { pending: 'orange', confirmed: 'blue', shipped: 'purple', delivered: 'green', cancelled: 'grey' },
  invoice: { open: 'blue', overdue: 'red', paid: 'green', cancelled: 'grey' },
  payment: { received: 'green', reversed: 'red' },
};

export type StatusKind = 'quotation' | 'order' | 'invoice' | 'payment';

/** A document's status as Medusa shows one: a coloured dot and the word in the person's language. */
export function DocumentStatus({ kind, status }: { kind: StatusKind; status: string }) {
  const { t } = useTranslation();
  const label = t(`sales.status.${kind}.${status}` as 'sales.status.order.pending', { defaultValue: status });
  return (
    <StatusBadge color={colours[kind]?.[status] ?? 'grey'} data-status={status}>
      {label}
    </StatusBadge>
  );
}
