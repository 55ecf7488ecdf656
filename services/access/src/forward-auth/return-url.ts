/**
 * A post-login return target is accepted only when it is an absolute http(s) URL on one of the
 * configured domains (or their subdomains). Anything else, including //evil.example and
 * javascript: URLs, is dropped, so the login page is never an open redirect.
 */
export function safeReturnUrl(raw: string | undefined | null, domains: string[]): string | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) return null;
  const host = url.hostname.toLowerCase();
  return domains.some((d) => host === d.toLowerCase() || host.endsWith(`.${d.toLowerCase()}`))
    ? url.toString()
    : null;
}

/**
 * The return URL of a denied request, `proto://host/uri` as the proxy reported it, or null when
 * the host is not on the domains. Same rule as safeReturnUrl, but the host check is remembered
 * per host: forward auth builds this for every denial. (The login page checks `rd` again with
 * safeReturnUrl before it redirects anywhere.)
 */
export function forwardedReturnUrl(domains: string[]) {
  const hostOk = new Map<string, boolean>();
  return (proto: 'http' | 'https', host: string, uri: string): string | null => {
    if (!uri.startsWith('/') || uri.startsWith('//')) return null;
    let ok = hostOk.get(host);
    if (ok === undefined) {
      ok = /^[A-Za-z0-9.-]+(:\d+)?$/.test(host) && safeReturnUrl(`${proto}://${host}/`, domains) !== null;
      if (hostOk.size >= 10_000) hostOk.clear();
      hostOk.set(host, ok);
    }
    return ok ? `${proto}://${host}${uri}` : null;
  };
}

/** access.<parent domain of the forwarded host>, keeping the port: the login host of this fleet. */
export function derivedAccessUrl(proto: string, forwardedHost: string): string {
  const [host = '', port] = forwardedHost.split(':');
  const parent = host.includes('.') ? host.slice(host.indexOf('.') + 1) : host;
  return `${proto}://access.${parent}${port ? `:${port}` : ''}`;
}
