'use client';

import { useActionState, useState } from 'react';
import type { Lang } from '@lib/i18n';
import {
  confirmAuthenticatorAction,
  enableTwoFactorAction,
  type FormState,
  startAuthenticatorAction,
} from '../actions';
import { at } from '../texts';
import { FormMessage } from './action-form';
import { CurrentPasswordField } from './current-password-field';

/** The key as an app shows it when typed in by hand: groups of four. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

function RecoveryCodes({ lang, codes, byApp }: { lang: Lang; codes: string[]; byApp: boolean }) {
  const tx = at(lang);
  return (
    <section className="recovery-codes" data-testid="recovery-codes">
      <p className="notice" role="status">
        {byApp ? tx.twoFactorOnApp : tx.twoFactorOn}
      </p>
      <h2>{tx.recoveryCodesTitle}</h2>
      <p>{byApp ? tx.recoveryCodesIntroApp : tx.recoveryCodesIntro}</p>
      <ol>
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * Turning the second factor on: e-mailed codes (one click), or an authenticator app (password,
 * then the QR code and the key as text, then the app's first code). Either way the 8 recovery
 * codes of the answer are shown once: they are not kept anywhere. With e-mailed codes already on
 * (`switching`) only the app is offered; finishing it replaces the e-mailed codes.
 */
export function TwoFactorEnable({ lang, switching = false }: { lang: Lang; switching?: boolean }) {
  // A new key starts the whole set-up over (fresh action states) after an expired one.
  const [round, setRound] = useState(0);
  return (
    <TwoFactorChoice key={round} lang={lang} switching={switching} restart={() => setRound((r) => r + 1)} />
  );
}

function TwoFactorChoice({
  lang,
  switching,
  restart,
}: {
  lang: Lang;
  switching: boolean;
  restart: () => void;
}) {
  const tx = at(lang);
  const [email, enableEmail, emailPending] = useActionState<FormState, FormData>(enableTwoFactorAction, {});
  const [start, startApp, startPending] = useActionState<FormState, FormData>(startAuthenticatorAction, {});
  const [confirm, confirmApp, confirmPending] = useActionState<FormState, FormData>(
    confirmAuthenticatorAction,
    {},
  );

  if (email.codes) return <RecoveryCodes lang={lang} codes={email.codes} byApp={false} />;
  if (confirm.codes) return <RecoveryCodes lang={lang} codes={confirm.codes} byApp />;

  if (start.setup)
    return (
      <div className="totp-setup" data-testid="authenticator-setup">
        <div className="totp-qr">
          <p>{tx.scanQr}</p>
          {/* A data URL made by the API: nothing of the secret leaves for a third party. */}
          <img src={start.setup.qr_data_url} alt={tx.qrAlt} width={200} height={200} data-testid="totp-qr" />
        </div>
        <div className="totp-steps">
          <p className="muted">{tx.keyInstead}</p>
          <p className="totp-key" data-testid="totp-key" data-secret={start.setup.secret}>
            {grouped(start.setup.secret)}
          </p>
          {confirm.restart ? (
            <>
              <FormMessage state={confirm} />
              <button type="button" onClick={restart} data-testid="totp-restart">
                {tx.startAgain}
              </button>
            </>
          ) : (
            <form action={confirmApp} className="account-form" data-testid="totp-confirm-form">
              <input type="hidden" name="lang" value={lang} />
              <label className="field">
                <span>{tx.enterFirstCode}</span>
                <input
                  name="code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="[0-9 ]{6,7}"
                  maxLength={7}
                  required
                  className="code-input"
                  aria-describedby="totp-valid"
                />
              </label>
              <FormMessage state={confirm} />
              <button type="submit" disabled={confirmPending} aria-busy={confirmPending}>
                {tx.confirmApp}
              </button>
              <p className="muted small" id="totp-valid">
                {tx.setupValidFor(Math.round(start.setup.expires_in / 60))}
              </p>
            </form>
          )}
        </div>
      </div>
    );

  return (
    <>
      <p>{switching ? tx.switchToApp : tx.twoFactorOff}</p>
      {!switching && <p className="muted">{tx.chooseMethod}</p>}
      <div className={switching ? 'method-choice single' : 'method-choice'}>
        {!switching && (
          <form action={enableEmail} className="method-card" data-testid="method-email">
            <h3>{tx.methodEmail}</h3>
            <p className="muted">{tx.methodEmailIntro}</p>
            <input type="hidden" name="lang" value={lang} />
            <FormMessage state={email} />
            <button type="submit" disabled={emailPending} data-testid="enable-2fa">
              {tx.enable2fa}
            </button>
          </form>
        )}
        <form action={startApp} className="method-card" data-testid="method-authenticator">
          <h3>{tx.methodApp}</h3>
          <p className="muted">{tx.methodAppIntro}</p>
          <input type="hidden" name="lang" value={lang} />
          <CurrentPasswordField label={tx.setupNeedsPassword} />
          <FormMessage state={start} />
          <button type="submit" disabled={startPending} data-testid="setup-authenticator">
            {tx.setUpApp}
          </button>
        </form>
      </div>
    </>
  );
}
