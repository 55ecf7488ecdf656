import Link from 'next/link';
import { listProducts, PAGE_SIZE } from '@lib/data/catalog';
import { type Lang, t } from '@lib/i18n';
import { ProductCard } from './product-card';

/** A page of products (server rendered) with search and paging links that keep the other filters. */
export async function ProductList({
  lang,
  q,
  category,
  page,
  basePath,
}: {
  lang: Lang;
  q?: string | undefined;
  category?: string | undefined;
  page: number;
  basePath: string;
}) {
  const tx = t(lang);
  const { products, count } = await listProducts({ lang, q, category, page });
  const pages = Math.max(1, Math.ceil(count / PAGE_SIZE));
  const href = (p: number) => {
    const params = new URLSearchParams();
    if (q) params.set('q', q);
    if (p > 1) params.set('page', String(p));
    const s = params.toString();
    return s ? `${basePath}?${s}` : basePath;
  };
  return (
    <section>
      <p className="muted" data-testid="result-count">
        {tx.results(count)}
      </p>
      {products.length === 0 ? (
        <p>{tx.noProducts}</p>
      ) : (
        <ul className="product-grid">
          {products.map((p) => (
            <ProductCard key={p.id} product={p} lang={lang} />
          ))}
        </ul>
      )}
      {pages > 1 && (
        <nav className="pager" aria-label="pages">
          {page > 1 ? <Link href={href(page - 1)}>{tx.previous}</Link> : <span />}
          <span>{tx.page(page, pages)}</span>
          {page < pages ? (
            <Link href={href(page + 1)} rel="next">
              {tx.next}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </section>
  );
}
