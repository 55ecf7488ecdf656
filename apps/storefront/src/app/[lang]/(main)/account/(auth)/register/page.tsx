import type { Metadata } from 'next';
import Link from 'next/link';
import { registerAction } from '@modules/account/actions';
import { ActionForm } from '@modules/account/components/action-form';
import { pageLang } from '@modules/account/page-helpers';
import { at } from '@modules/account/texts';

export const metadata: Metadata = { title: 'Register' };

export default async function RegisterPage({ params }: { params: Promise<{ lang: string }> }) {
  const lang = await pageLang(params);
  const tx = at(lang);
  return (
    <>
      <h1>{tx.register}</h1>
      <p className="muted">{tx.registerIntro}</p>
      <ActionForm action={registerAction} lang={lang} submitLabel={tx.register} testId="register-form">
        <div className="field-row">
          <label className="field">
            <span>{tx.firstName}</span>
            <input name="first_name" autoComplete="given-name" required maxLength={200} />
          </label>
          <label className="field">
            <span>{tx.lastName}</span>
            <input name="last_name" autoComplete="family-name" required maxLength={200} />
          </label>
        </div>
        <label className="field">
          <span>{tx.company}</span>
          <input name="company_name" autoComplete="organization" required maxLength={200} />
        </label>
        <label className="field">
          <span>{tx.email}</span>
          <input name="email" type="email" autoComplete="email" required maxLength={254} />
        </label>
        <label className="field">
          <span>{tx.password}</span>
          <input
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={10}
            maxLength={128}
            aria-describedby="password-hint"
          />
          <small id="password-hint" className="muted">
            {tx.passwordHint}
          </small>
        </label>
      </ActionForm>
      <p className="muted">
        {tx.haveAccount} <Link href={`/${lang}/account/login`}>{tx.signIn}</Link>
      </p>
    </>
  );
}
