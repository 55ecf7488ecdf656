'use client';

import Link from 'next/link';
import { useParams } from 'next/navigation';
import { isLang } from '@lib/i18n';
import { at } from '@modules/account/texts';

/** An unexpected failure in the account: a readable message in the page's language, not a crash page. */
export default function AccountError({ reset }: { error: Error; reset: () => void }) {
  const params = useParams<{ lang: string }>();
  const lang = isLang(params.lang) ? params.lang : 'nl';
  const tx = at(lang);
  return (
    <section className="account-card narrow-card" role="alert" data-testid="account-error">
      <h1>{tx.myAccount}</h1>
      <p className="error">{tx.errors.generic}</p>
      <p className="actions-row">
        <button type="button" onClick={reset}>
          {tx.back}
        </button>
        <Link href={`/${lang}/account`}>{tx.overview}</Link>
      </p>
    </section>
  );
}
