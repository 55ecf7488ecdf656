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

/** access.<parent domain of the forwarded host>, keeping the port: the login host of this fleet. */
export function derivedAccessUrl(proto: string, forwardedHost: string): string {
  const [host = '', port] = forwardedHost.split(':');
  const parent = host.includes('.') ? host.slice(host.indexOf('.') + 1) : host;
  return `${proto}://access.${parent}${port ? `:${port}` : ''}`;
}
