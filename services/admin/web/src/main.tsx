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
import { sdk } from './lib/sdk';
import { loginPath, onSessionExpired } from './lib/session';
import { routeMap } from './router/route-map';

const router = createBrowserRouter(routeMap, { basename: '/app' });

// A 401 from any call: drop the token and the cached data, sign in again, come back here.
onSessionExpired(() => {
  const { pathname, search } = router.state.location;
  if (pathname === '/login') return;
  void sdk.client.clearToken();
  queryClient.clear();
  void router.navigate(loginPath(pathname + search, true), { replace: true });
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
