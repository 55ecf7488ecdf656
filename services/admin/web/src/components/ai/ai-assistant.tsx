import { Sparkles } from '@medusajs/icons';
import { Button } from '@medusajs/ui';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeatures } from '../../hooks/api/features';

const AiPanel = lazy(() => import('./ai-panel'));

/**
 * The AI assistant's button in the topbar and its drawer, only while `ai_assist` is licensed
 * (a license toggled off hides it at once, through the features stream). The drawer's code is
 * loaded when it is first opened.
 */
export function AiAssistant() {
  const { t } = useTranslation();
  const features = useFeatures();
  const [open, setOpen] = useState(false);
  if (!features.data?.features.includes('ai_assist')) return null;
  return (
    <>
      <Button size="small" variant="transparent" onClick={() => setOpen(true)} data-testid="ai-open">
        <Sparkles className="text-ui-tag-purple-icon" />
        <span className="hidden sm:inline">{t('ai.open')}</span>
      </Button>
      {open && (
        <Suspense fallback={null}>
          <AiPanel open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
