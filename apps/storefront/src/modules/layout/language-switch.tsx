'use client';

import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { type Lang, languages } from '@lib/i18n';

/** The same page in another language: only the first path segment changes, the query stays. */
export function LanguageSwitch({ lang }: { lang: Lang }) {
  const pathname = usePathname() ?? `/${lang}`;
  const query = useSearchParams()?.toString();
  const rest = pathname.replace(/^\/[^/]+/, '');
  return (
    <nav className="langs" aria-label="Language">
      {languages.map((l) => (
        <Link
          key={l}
          href={`/${l}${rest}${query ? `?${query}` : ''}`}
          className={l === lang ? 'active' : undefined}
          hrefLang={l}
        >
          {l.toUpperCase()}
        </Link>
      ))}
    </nav>
  );
}
