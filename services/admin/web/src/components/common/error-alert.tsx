import { Alert, Button } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/api-error';

/**
 * A failed call, shown where the person acted: the API's message (never a blank space), with
 * a retry button when given. Renders nothing without an error.
 */
export function ErrorAlert({
  error,
  onRetry,
  className,
}: {
  error: unknown;
  onRetry?: () => void;
  className?: string;
}) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <Alert variant="error" className={className} data-testid="error-alert" role="alert">
      <div className="flex items-start justify-between gap-x-4">
        <span>{errorMessage(error, t)}</span>
        {onRetry && (
          <Button size="small" variant="secondary" type="button" onClick={onRetry}>
            {t('general.retry')}
          </Button>
        )}
      </div>
    </Alert>
  );
}
