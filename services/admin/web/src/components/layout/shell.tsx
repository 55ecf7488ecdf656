import { SidebarLeft, XMark } from '@medusajs/icons';
import { IconButton } from '@medusajs/ui';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigation } from 'react-router';
import { useFeatureEvents } from '../../hooks/api/features';
import { AiAssistant } from '../ai/ai-assistant';
import { ErrorBoundary } from '../common/error-boundary';
import { Breadcrumbs } from './breadcrumbs';
import { Sidebar } from './sidebar';

/**
 * The signed-in frame, as in Medusa's dashboard: sidebar on the left (a drawer on small
 * screens), topbar with breadcrumbs, the page in a centred gutter. A page that throws while
 * rendering shows an error panel inside the frame; the sidebar stays.
 */
export function Shell() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigation = useNavigation();
  const [mobileOpen, setMobileOpen] = useState(false);
  const stream = useFeatureEvents();
  useEffect(() => setMobileOpen(false), [location.pathname]);

  return (
    <div className="flex h-screen w-full overflow-hidden" data-testid="shell" data-feature-stream={stream}>
      <div className="border-ui-border-base hidden h-screen w-[232px] shrink-0 border-r lg:flex">
        <Sidebar />
      </div>
      {mobileOpen && (
        <div className="fixed inset-0 z-50 lg:hidden" role="dialog" aria-modal="true">
          <button
            type="button"
            aria-label={t('nav.closeMenu')}
            className="bg-ui-bg-overlay absolute inset-0"
            onClick={() => setMobileOpen(false)}
          />
          <div className="shadow-elevation-modal absolute inset-y-2 left-2 flex w-[280px] overflow-hidden rounded-lg">
            <Sidebar />
            <IconButton
              size="small"
              variant="transparent"
              className="absolute right-2 top-2"
              aria-label={t('nav.closeMenu')}
              onClick={() => setMobileOpen(false)}
            >
              <XMark />
            </IconButton>
          </div>
        </div>
      )}
      <div className="flex h-screen min-w-0 flex-1 flex-col">
        <header className="border-ui-border-base flex h-12 shrink-0 items-center gap-x-2 border-b px-3">
          <IconButton
            size="small"
            variant="transparent"
            className="lg:hidden"
            aria-label={t('nav.openMenu')}
            onClick={() => setMobileOpen(true)}
          >
            <SidebarLeft className="text-ui-fg-muted" />
          </IconButton>
          <Breadcrumbs />
          <div className="ml-auto flex items-center">
            <AiAssistant />
          </div>
        </header>
        <main
          className={`flex-1 overflow-y-auto transition-opacity ${navigation.state === 'loading' ? 'opacity-60' : ''}`}
        >
          <div className="mx-auto flex w-full max-w-[1600px] flex-col gap-y-3 p-3">
            <ErrorBoundary resetKey={location.pathname}>
              <Outlet />
            </ErrorBoundary>
          </div>
        </main>
      </div>
    </div>
  );
}
