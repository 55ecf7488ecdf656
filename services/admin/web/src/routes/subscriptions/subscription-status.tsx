import { StatusBadge } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import type { SubscriptionStatus as Status } from '../../hooks/api/subscriptions';

const colours = { active: 'green', scheduled: 'blue', paused: 'orange', ended: 'grey' } as const;

/** A subscription's status as a coloured dot and the word in the person's language. */
export function SubscriptionStatus({ status }: { status: Status }) {
  const { t } = useTranslation();
  return (
    <StatusBadge color={colours[status]} data-status={status}>
      {t(`subscriptions.status.${status}`)}
    </StatusBadge>
  );
}

/** Company, else the contact's name, else the e-mail address. */
export const subscriptionCustomer = (s: {
  customer_company: string | null;
  customer_name: string | null;
  customer_email: string | null;
  customer_id: number;
}) => s.customer_company || s.customer_name || s.customer_email || `#${s.customer_id}`;
