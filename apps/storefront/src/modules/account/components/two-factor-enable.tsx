'use client';

import { useActionState } from 'react';
import { enableTwoFactorAction, type FormState } from '../actions';
import { FormMessage } from './action-form';

/** Turns 2FA on and shows the 8 recovery codes of the answer: once, they are not kept anywhere. */
export function TwoFactorEnable({
  lang,
  label,
  codesTitle,
  codesIntro,
  offText,
  onText,
}: {
  lang: string;
  label: string;
  codesTitle: string;
  codesIntro: string;
  offText: string;
  onText: string;
}) {
  const [state, action, pending] = useActionState<FormState, FormData>(enableTwoFactorAction, {});
  if (state.codes)
    return (
      <section className="recovery-codes" data-testid="recovery-codes">
        <p className="notice" role="status">
          {onText}
        </p>
        <h2>{codesTitle}</h2>
        <p>{codesIntro}</p>
        <ol>
          {state.codes.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ol>
      </section>
    );
  return (
    <form action={action} className="account-form">
      <p>{offText}</p>
      <input type="hidden" name="lang" value={lang} />
      <FormMessage state={state} />
      <button type="submit" disabled={pending} data-testid="enable-2fa">
        {label}
      </button>
    </form>
  );
}
