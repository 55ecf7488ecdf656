import { languages } from '@lib/i18n';

export const dynamic = 'force-dynamic';

/**
 * The auth service links a customer's reset e-mail to `<store_base_url>/reset-password?token=..&email=..`
 * (tenants.store_base_url): this sends the visitor on to the account's reset page with the token
 * and address. The language is the link's `lang` when it has one, else the browser's
 * (Accept-Language), Dutch by default. Nothing here logs the token; the redirect is not cached
 * and sends no Referer onwards.
 */
export function GET(request: Request) {
  const url = new URL(request.url);
  const known = (l: string | null | undefined): l is string =>
    !!l && (languages as readonly string[]).includes(l);
  const linked = url.searchParams.get('lang');
  const accepted = (request.headers.get('accept-language') ?? '')
    .split(',')
    .map((part) => part.split(';')[0]!.trim().slice(0, 2).toLowerCase());
  const lang = known(linked) ? linked : (accepted.find(known) ?? 'nl');
  const query = new URLSearchParams();
  // Longer than any token or address the auth service makes: such a link is broken, not used.
  const token = url.searchParams.get('token') ?? '';
  const email = url.searchParams.get('email') ?? '';
  if (token && token.length <= 4096) query.set('token', token);
  if (email && email.length <= 254) query.set('email', email);
  const search = query.size ? `?${query.toString()}` : '';
  return new Response(null, {
    status: 303,
    headers: {
      location: `/${lang}/account/reset-password${search}`,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    },
  });
}
