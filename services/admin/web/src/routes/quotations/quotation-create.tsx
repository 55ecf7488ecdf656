import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../components/layout/page';
import { useCreateQuotation } from '../../hooks/api/quotations';
import { QuotationForm } from './quotation-form';

/** /app/quotations/create: a new quotation (source "manual": made by staff in the panel). */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateQuotation();
  return (
    <Page
      title={t('quotations.create')}
      description={t('quotations.createDescription')}
      testId="quotation-create-page"
    >
      <QuotationForm
        onSubmit={(body) => create.mutate(body, { onSuccess: (q) => void navigate(`/quotations/${q.id}`) })}
        error={create.error}
        isSubmitting={create.isPending}
        cancelTo="/quotations"
        submitLabel={t('quotations.save')}
      />
    </Page>
  );
}
