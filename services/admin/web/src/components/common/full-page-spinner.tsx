import { Spinner } from '@medusajs/icons';
import { useTranslation } from 'react-i18next';

export function FullPageSpinner() {
  const { t } = useTranslation();
  return (
    <div className="flex h-screen w-full items-center justify-center" role="status" aria-live="polite">
      <Spinner className="text-ui-fg-interactive animate-spin" />
      <span className="sr-only">{t('general.loading')}</span>
    </div>
  );
}

export function SectionSpinner() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-[160px] w-full items-center justify-center" role="status">
      <Spinner className="text-ui-fg-muted animate-spin" />
      <span className="sr-only">{t('general.loading')}</span>
    </div>
  );
}
