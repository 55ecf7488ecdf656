import Link from 'next/link';
import { type AccessCheck, checkAccess } from '@lib/data/gatekeeper';
import { runtimeEnv } from '@lib/env';
import { isLang, type Lang } from '@lib/i18n';
import { AccessForm } from '@modules/gatekeeper/access-form';
import { gateTexts } from '@modules/gatekeeper/texts';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Toegang' };

/** The access page (always public): the visitor's status, and the request form when there is none. */
export default async function AccessPage({ searchParams }: { searchParams: Promise<{ lang?: string }> }) {
  const sp = await searchParams;
  const lang: Lang = sp.lang && isLang(sp.lang) ? sp.lang : 'nl';
  const tx = gateTexts(lang);
  let access: AccessCheck | null = null;
  if (runtimeEnv.gatekeeperEnabled()) {
    try {
      access = await checkAccess();
    } catch {
      access = null;
    }
  } else {
    access = { has_access: true, status: 'approved', message: '' };
  }
  return (
    <main className="narrow gate">
      <h1>{tx.title}</h1>
      {access === null ? (
        <p className="error">{tx.unavailable}</p>
      ) : (
        <>
          <p className="status" data-testid="access-status" data-status={access.status}>
            {tx.status}: <strong>{tx.statusNames[access.status]}</strong>
          </p>
          {access.has_access ? (
            <p>
              {tx.approved} <Link href={`/${lang}`}>{tx.toShop}</Link>
            </p>
          ) : access.status === 'pending' ? (
            <p className="notice">{tx.pending}</p>
          ) : access.status === 'rejected' ? (
            <p className="notice error">{tx.rejected}</p>
          ) : (
            <>
              <p>{tx.intro}</p>
              <AccessForm lang={lang} tx={tx} />
            </>
          )}
        </>
      )}
      <nav className="langs" aria-label="Language">
        {(['nl', 'en', 'de'] as const).map((l) => (
          <Link key={l} href={`/toegang?lang=${l}`} className={l === lang ? 'active' : undefined}>
            {l.toUpperCase()}
          </Link>
        ))}
      </nav>
    </main>
  );
}
