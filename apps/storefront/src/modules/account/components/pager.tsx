import Link from 'next/link';

/** Previous/next links over a list of `count` records, `size` per page. */
export function Pager({
  page,
  count,
  size,
  href,
  texts,
}: {
  page: number;
  count: number;
  size: number;
  href: (page: number) => string;
  texts: { previous: string; nextPage: string; page: (p: number, of: number) => string };
}) {
  const pages = Math.max(1, Math.ceil(count / size));
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label="pages">
      {page > 1 ? <Link href={href(page - 1)}>{texts.previous}</Link> : <span />}
      <span className="muted">{texts.page(Math.min(page, pages), pages)}</span>
      {page < pages ? (
        <Link href={href(page + 1)} data-testid="next-page">
          {texts.nextPage}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
