import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../components/layout/page';
import { useCreateSubscription } from '../../hooks/api/subscriptions';
import { SubscriptionForm } from './subscription-form';

/** /app/subscriptions/create */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateSubscription();
  return (
    <Page title={t('subscriptions.create')} testId="subscription-create-page">
      <SubscriptionForm
        onSubmit={(body) => void create.mutateAsync(body).then((s) => navigate(`/subscriptions/${s.id}`))}
        error={create.error}
        isSubmitting={create.isPending}
        cancelTo="/subscriptions"
        submitLabel={t('subscriptions.create')}
      />
    </Page>
  );
}
