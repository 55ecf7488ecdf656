import Link from 'next/link';
import { type Lang, t } from '@lib/i18n';

/** Header entry to the customer account (owned by the account module). */
export function AccountMenu({ lang }: { lang: Lang }) {
  return (
    <Link href={`/${lang}/account`} className="account-link">
      {t(lang).account}
    </Link>
  );
}
