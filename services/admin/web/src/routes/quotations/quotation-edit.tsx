import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ErrorAlert } from '../../components/common/error-alert';
import { SectionSpinner } from '../../components/common/full-page-spinner';
import { Page } from '../../components/layout/page';
import { useQuotation, useUpdateQuotation } from '../../hooks/api/quotations';
import { QuotationForm } from './quotation-form';

/** /app/quotations/:id/edit: header and lines of an open quotation (the API refuses others). */
export function Component() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const quotation = useQuotation(id);
  const update = useUpdateQuotation(Number(id));
  if (quotation.error) return <ErrorAlert error={quotation.error} onRetry={() => void quotation.refetch()} />;
  if (!quotation.data) return <SectionSpinner />;
  const q = quotation.data;
  return (
    <Page
      title={t('quotations.editTitle', { number: q.quotation_number })}
      description={q.status === 'open' ? undefined : t('quotations.notOpen')}
      testId="quotation-edit-page"
    >
      <QuotationForm
        quotation={q}
        onSubmit={(body) => update.mutate(body, { onSuccess: () => void navigate(`/quotations/${q.id}`) })}
        error={update.error}
        isSubmitting={update.isPending}
        cancelTo={`/quotations/${q.id}`}
        submitLabel={t('general.save')}
      />
    </Page>
  );
}
