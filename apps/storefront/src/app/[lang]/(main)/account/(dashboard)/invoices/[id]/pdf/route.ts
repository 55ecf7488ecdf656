import { tenantFeatures } from '@lib/data/features';
import { invoicePdf } from '@lib/data/invoices';
import { ApiError } from '@lib/data/store-api';
import { isLang } from '@lib/i18n';
import { accountError } from '@modules/account/errors';

export const dynamic = 'force-dynamic';

/**
 * The invoice PDF through the shop: the API needs the customer's session, which lives in this
 * host's cookie. The API's bytes are streamed on unchanged (the admin's persisted file).
 */
export async function GET(_request: Request, { params }: { params: Promise<{ lang: string; id: string }> }) {
  const { lang, id } = await params;
  const n = Number(id);
  if (
    !isLang(lang) ||
    !/^[0-9]{1,15}$/.test(id) ||
    !Number.isSafeInteger(n) ||
    n <= 0 ||
    !(await tenantFeatures()).hasFeature('invoices')
  )
    return new Response('Not found', {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  let upstream: Response;
  try {
    upstream = await invoicePdf(n);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401)
      return new Response(null, { status: 303, headers: { location: `/${lang}/account/login?expired=1` } });
    const status = err instanceof ApiError && err.status >= 400 && err.status < 600 ? err.status : 502;
    return new Response(accountError(lang, err, 'document'), {
      status,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  const headers = new Headers({
    'content-type': 'application/pdf',
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
  });
  const disposition = upstream.headers.get('content-disposition');
  if (disposition) headers.set('content-disposition', disposition);
  const length = upstream.headers.get('content-length');
  if (length) headers.set('content-length', length);
  return new Response(upstream.body, { status: 200, headers });
}
