import { tenantFeatures } from '@lib/data/features';
import { returnPhoto } from '@lib/data/returns';
import { ApiError } from '@lib/data/store-api';

export const dynamic = 'force-dynamic';

const validId = (s: string) => /^[0-9]{1,15}$/.test(s) && Number(s) > 0;

/** A photo of one of my returns, through the shop (the API needs the session cookie of this host). */
export async function GET(
  _request: Request,
  { params }: { params: Promise<{ lang: string; id: string; photoId: string }> },
) {
  const { id, photoId } = await params;
  if (!validId(id) || !validId(photoId) || !(await tenantFeatures()).hasFeature('invoices'))
    return new Response(null, { status: 404 });
  try {
    const upstream = await returnPhoto(Number(id), Number(photoId));
    return new Response(upstream.body, {
      headers: {
        'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream',
        'cache-control': 'private, max-age=3600',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
      },
    });
  } catch (err) {
    return new Response(null, {
      status: err instanceof ApiError && err.status >= 400 && err.status < 500 ? err.status : 502,
    });
  }
}
