import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ErrorPanel } from '../../components/common/error-boundary';
import { SectionSpinner } from '../../components/common/full-page-spinner';
import { Page } from '../../components/layout/page';
import { useSubscription, useUpdateSubscription } from '../../hooks/api/subscriptions';
import { SubscriptionForm } from './subscription-form';

/** /app/subscriptions/:id/edit: header and lines (the lines are replaced as a whole). */
export function Component() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const subscription = useSubscription(id);
  const update = useUpdateSubscription(id);
  if (subscription.isPending) return <SectionSpinner />;
  if (subscription.isError)
    return <ErrorPanel error={subscription.error} onRetry={() => void subscription.refetch()} />;
  return (
    <Page title={t('subscriptions.editTitle', { id })} testId="subscription-edit-page">
      <SubscriptionForm
        subscription={subscription.data}
        onSubmit={(body) => void update.mutateAsync(body).then(() => navigate(`/subscriptions/${id}`))}
        error={update.error}
        isSubmitting={update.isPending}
        cancelTo={`/subscriptions/${id}`}
        submitLabel={t('general.save')}
      />
    </Page>
  );
}
