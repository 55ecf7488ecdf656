/**
 * Where a person goes when their token stops working: sign-in, with the page they were on
 * kept in `?redirect=` so they come back to it. The query client reports 401s here; the router
 * (main.tsx) listens.
 */
type Listener = () => void;
const listeners = new Set<Listener>();

export function onSessionExpired(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function sessionExpired(): void {
  for (const l of listeners) l();
}

/**
 * A redirect target from `?redirect=`, or null when it is not a path inside the panel (an
 * absolute URL, `//host`, a backslash trick): sign-in never sends anyone off the site.
 * Accepts the router's paths (`/quotations?page=2`) and full ones (`/app/quotations`).
 */
export function safeRedirect(raw: string | null | undefined): string | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || /[\\\s]/.test(raw)) return null;
  let path = raw;
  if (path === '/app' || path.startsWith('/app/') || path.startsWith('/app?')) path = path.slice(4) || '/';
  if (!path.startsWith('/')) path = `/${path}`;
  // The public pages are no place to come back to.
  if (/^\/(login|forgot-password|reset-password)(\/|\?|$)/.test(path)) return null;
  return path;
}

/** `/login?redirect=...` for the router path given (pathname + search). */
export function loginPath(current: string | null, expired = false): string {
  const params = new URLSearchParams();
  const target = safeRedirect(current);
  if (target && target !== '/') params.set('redirect', target);
  if (expired) params.set('expired', '1');
  const q = params.toString();
  return q ? `/login?${q}` : '/login';
}
