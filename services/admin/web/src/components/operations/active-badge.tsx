import { StatusBadge } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';

/** Active or inactive, as Medusa's lists show it. */
export function ActiveBadge({ active }: { active: boolean }) {
  const { t } = useTranslation();
  return (
    <StatusBadge color={active ? 'green' : 'grey'}>
      {active ? t('ops.active') : t('ops.inactive')}
    </StatusBadge>
  );
}
