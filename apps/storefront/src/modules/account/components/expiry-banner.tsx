import Link from 'next/link';
import type { Quotation } from '@lib/data/quotes';
import type { Lang } from '@lib/i18n';
import { at } from '../texts';

/** Spec 1: open quotations that expire within 3 days get a banner (the API marks them expiring_soon). */
export function ExpiryBanner({ lang, quotes }: { lang: Lang; quotes: Quotation[] }) {
  const soon = quotes.filter((q) => q.expiring_soon);
  if (soon.length === 0) return null;
  const first = soon[0]!;
  return (
    <div className="banner warning" role="status" data-testid="expiry-banner">
      {at(lang).expiringBanner(soon.length, first.quotation_number, first.expires_in_days ?? 0)}{' '}
      <Link href={`/${lang}/account/quotations/${first.id}`}>{at(lang).details}</Link>
    </div>
  );
}
