'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

/** The account's sections as tabs; the open one is marked (a client component for the path only). */
export function AccountNav({ items, label }: { items: { href: string; label: string }[]; label: string }) {
  const path = usePathname();
  const root = items[0]?.href;
  return (
    <nav className="account-nav" aria-label={label}>
      {items.map((i) => {
        const active = i.href === root ? path === root : path === i.href || path.startsWith(`${i.href}/`);
        return (
          <Link
            key={i.href}
            href={i.href}
            className={active ? 'active' : undefined}
            aria-current={active ? 'page' : undefined}
          >
            {i.label}
          </Link>
        );
      })}
    </nav>
  );
}
