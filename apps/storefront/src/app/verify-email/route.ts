import { languages } from '@lib/i18n';

export const dynamic = 'force-dynamic';

/**
 * The auth service links its verification e-mail to `<store_base_url>/verify-email?token=..&lang=..`
 * (tenants.store_base_url; lang is the e-mail's language): this sends the visitor on to the
 * account's verify page in that language; a link without one (an older e-mail) goes by the
 * browser's language (Accept-Language), Dutch by default.
 */
export function GET(request: Request) {
  const url = new URL(request.url);
  const token = url.searchParams.get('token') ?? '';
  const known = (l: string | null | undefined): l is string =>
    !!l && (languages as readonly string[]).includes(l);
  const linked = url.searchParams.get('lang');
  const accepted = (request.headers.get('accept-language') ?? '')
    .split(',')
    .map((part) => part.split(';')[0]!.trim().slice(0, 2).toLowerCase());
  const lang = known(linked) ? linked : (accepted.find(known) ?? 'nl');
  const target = `/${lang}/account/verify${token ? `?token=${encodeURIComponent(token.slice(0, 200))}` : ''}`;
  return new Response(null, { status: 303, headers: { location: target, 'cache-control': 'no-store' } });
}
