import '@fontsource-variable/inter/wght.css';
import './index.css';
import './i18n';
import { Toaster, TooltipProvider } from '@medusajs/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ErrorBoundary } from './components/common/error-boundary';
import { queryClient } from './lib/query-client';
import { hasToken, sdk } from './lib/sdk';
import { loginPath, onSessionExpired } from './lib/session';
import { routeMap } from './router/route-map';

const router = createBrowserRouter(routeMap, { basename: '/app' });

// A 401 from any call: sign in again and come back here. The token and the cached data go once
// the sign-in page is showing (dropped earlier, the protected pages would redirect on their own
// and lose the "session expired" note).
let expiring = false;
onSessionExpired(() => {
  const { pathname, search } = router.state.location;
  // No token: the person signed out, and a request sent before that came back 401. The
  // protected pages send them to sign-in on their own, without the "session expired" note.
  if (expiring || pathname === '/login' || !hasToken()) return;
  expiring = true;
  void router
    .navigate(loginPath(pathname + search, true), { replace: true })
    .then(async () => {
      await sdk.client.clearToken();
      queryClient.clear();
    })
    .finally(() => {
      expiring = false;
    });
});

// Leaving the page aborts the feature stream (useFeatureEvents); the SDK's stream reader then
// rejects with an AbortError nobody is left to await. That is the intended end of the stream, not
// a failure: it is marked handled. Every other unhandled rejection still surfaces.
window.addEventListener('unhandledrejection', (event: PromiseRejectionEvent) => {
  const reason = event.reason as { name?: unknown } | null;
  if (reason && typeof reason === 'object' && reason.name === 'AbortError') event.preventDefault();
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <TooltipProvider>
          <RouterProvider router={router} />
          <Toaster />
        </TooltipProvider>
      </QueryClientProvider>
    </ErrorBoundary>
  </StrictMode>,
);
