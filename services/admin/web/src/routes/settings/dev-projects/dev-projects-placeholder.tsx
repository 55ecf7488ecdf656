import { Alert } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AreaPlaceholder } from '../../../components/common/area-placeholder';

/**
 * SCAFFOLDING ONLY: /app/settings/dev-projects, the target of the portal's deep link
 * (`?code=<project code>`). The dev-projects pages replace it (list, detail with commits and
 * diff, rebuild); they should open the project named by `code`.
 */
export function Component() {
  const { t } = useTranslation();
  const code = useSearchParams()[0].get('code');
  return (
    <div className="flex flex-col gap-y-3" data-testid="dev-projects" data-code={code ?? ''}>
      {code && <Alert variant="info">{t('devProjects.deepLink', { code })}</Alert>}
      <AreaPlaceholder title={t('nav.items.devProjects')} />
    </div>
  );
}
