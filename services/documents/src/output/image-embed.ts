/**
 * Turns catalog and logo image URLs into data: URIs before rendering, so the browser never goes
 * to the network (its pages are offline) and a PDF looks the same wherever it is opened.
 */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const CACHE_LIMIT = 200;
const ALLOWED_TYPES = /^image\/(png|jpeg|gif|webp|svg\+xml)$/;

export class ImageEmbedder {
  // Small LRU: the same product photo and logo recur on many documents.
  private readonly cache = new Map<string, string | null>();

  constructor(private readonly timeoutMs: number) {}

  async embed(url: string | null | undefined): Promise<string | null> {
    if (!url) return null;
    if (url.startsWith('data:image/')) return url;
    if (!/^https?:\/\//i.test(url)) return null;
    if (this.cache.has(url)) {
      const hit = this.cache.get(url) ?? null;
      this.cache.delete(url);
      this.cache.set(url, hit);
      return hit;
    }
    const value = await this.fetchAsDataUri(url);
    // Failures are not cached: an image host that was briefly down should not blank later PDFs.
    if (value !== null) {
      this.cache.set(url, value);
      if (this.cache.size > CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value as string);
    }
    return value;
  }

  private async fetchAsDataUri(url: string): Promise<string | null> {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(this.timeoutMs), redirect: 'follow' });
      if (!res.ok) return null;
      const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (!ALLOWED_TYPES.test(type)) return null;
      const declared = Number(res.headers.get('content-length') ?? 0);
      if (declared > MAX_IMAGE_BYTES) return null;
      const body = Buffer.from(await res.arrayBuffer());
      if (body.length === 0 || body.length > MAX_IMAGE_BYTES) return null;
      return `data:${type};base64,${body.toString('base64')}`;
    } catch {
      // A missing picture must not cost the customer the quotation: render without it.
      return null;
    }
  }
}
