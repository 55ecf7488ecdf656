import type { Metadata } from 'next';
import Link from 'next/link';
import { twoFactorStatus } from '@lib/data/customer';
import { disableTwoFactorAction } from '@modules/account/actions';
import { ActionForm } from '@modules/account/components/action-form';
import { CurrentPasswordField } from '@modules/account/components/current-password-field';
import { TwoFactorEnable } from '@modules/account/components/two-factor-enable';
import { load, pageLang } from '@modules/account/page-helpers';
import { at } from '@modules/account/texts';

export const metadata: Metadata = { title: 'Security' };

/**
 * Two-step verification: on with e-mailed codes or an authenticator app (the 8 recovery codes are
 * shown once), off with the password. With e-mailed codes on, an app can be set up in their place.
 */
export default async function SecurityPage({ params }: { params: Promise<{ lang: string }> }) {
  const lang = await pageLang(params);
  const tx = at(lang);
  const status = await load(lang, () => twoFactorStatus());
  return (
    <>
      <h1>{tx.security}</h1>
      <section
        className="tile wide"
        data-testid="two-factor"
        data-enabled={status.data?.enabled ? 'true' : 'false'}
        data-method={status.data?.method ?? ''}
      >
        <h2>{tx.twoFactor}</h2>
        {status.error !== undefined ? (
          <p className="error" role="alert">
            {status.error}
          </p>
        ) : status.data.enabled ? (
          <>
            <p data-testid="two-factor-state">
              {status.data.method === 'authenticator' ? tx.twoFactorOnApp : tx.twoFactorOn}
            </p>
            <p className="muted">{tx.codesRemaining(status.data.recovery_codes_remaining)}</p>
            <ActionForm
              action={disableTwoFactorAction}
              lang={lang}
              submitLabel={tx.disable2fa}
              danger
              testId="disable-2fa"
            >
              <CurrentPasswordField label={tx.disableNeedsPassword} />
            </ActionForm>
            {status.data.method === 'email' && (
              <div className="switch-method">
                <TwoFactorEnable lang={lang} switching />
              </div>
            )}
          </>
        ) : (
          <TwoFactorEnable lang={lang} />
        )}
      </section>
      <section className="tile wide danger-zone">
        <h2>{tx.deleteAccount}</h2>
        <p className="muted">{tx.deleteIntro}</p>
        <Link href={`/${lang}/account/delete`}>{tx.deleteAccount} →</Link>
      </section>
    </>
  );
}
