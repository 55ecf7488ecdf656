'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { CategoryNode } from '@lib/data/catalog';

function Branch({
  nodes,
  lang,
  active,
}: {
  nodes: CategoryNode[];
  lang: string;
  active: string | undefined;
}) {
  return (
    <ul>
      {nodes.map((n) => (
        <li key={n.id}>
          <Link href={`/${lang}/categories/${n.slug}`} className={active === n.slug ? 'active' : undefined}>
            {n.name}
          </Link>
          {n.children.length > 0 && <Branch nodes={n.children} lang={lang} active={active} />}
        </li>
      ))}
    </ul>
  );
}

/** The category tree of the store API, nested as the tenant arranged it; the open one marked. */
export function CategoryTree({
  nodes,
  lang,
  title,
  allLabel,
}: {
  nodes: CategoryNode[];
  lang: string;
  title: string;
  allLabel: string;
}) {
  const path = usePathname();
  const match = /^\/[a-z]{2}\/categories\/([^/]+)/.exec(path);
  const active = match ? decodeURIComponent(match[1]!) : undefined;
  const onList = path === `/${lang}`;
  return (
    <nav className="category-tree" aria-label={title}>
      <h2>{title}</h2>
      <ul>
        <li>
          <Link href={`/${lang}`} className={onList ? 'active' : undefined}>
            {allLabel}
          </Link>
        </li>
      </ul>
      <Branch nodes={nodes} lang={lang} active={active} />
    </nav>
  );
}
