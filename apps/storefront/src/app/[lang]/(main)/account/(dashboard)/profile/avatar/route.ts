import { fetchAvatar } from '@lib/data/customer';
import { ApiError } from '@lib/data/store-api';

export const dynamic = 'force-dynamic';

/** My avatar through the shop: the API needs the session, which only this host's cookie carries. */
export async function GET() {
  try {
    const upstream = await fetchAvatar();
    return new Response(upstream.body, {
      headers: {
        'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream',
        'cache-control': 'private, max-age=300',
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
