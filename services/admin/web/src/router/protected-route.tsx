import { Navigate, Outlet, useLocation } from 'react-router';
import { ErrorPanel } from '../components/common/error-boundary';
import { FullPageSpinner } from '../components/common/full-page-spinner';
import { useMe } from '../hooks/api/auth';
import { isUnauthorized } from '../lib/api-error';
import { hasToken } from '../lib/sdk';
import { loginPath } from '../lib/session';

/**
 * Everything behind sign-in. No stored token: to /login with the page kept. A token the API
 * refuses (expired, revoked by a password reset): the 401 handler does the same (main.tsx).
 */
export function ProtectedRoute() {
  const location = useLocation();
  const present = hasToken();
  const me = useMe({ enabled: present });
  if (!present) return <Navigate to={loginPath(location.pathname + location.search)} replace />;
  if (me.isPending || (me.isError && isUnauthorized(me.error))) return <FullPageSpinner />;
  if (me.isError) {
    return (
      <div className="mx-auto max-w-xl p-6">
        <ErrorPanel error={me.error} onRetry={() => void me.refetch()} />
      </div>
    );
  }
  return <Outlet />;
}
