'use client';

import { useActionState } from 'react';
import type { Lang } from '@lib/i18n';
import { requestQuoteAction, type QuoteState } from './actions';
import { cartTexts } from './texts';

/** "Request a quotation": a guest gives name, e-mail and company; a signed-in customer finds them filled in. */
export function QuoteForm({
  lang,
  prefill,
}: {
  lang: Lang;
  prefill: { name: string; email: string; company: string } | null;
}) {
  const tx = cartTexts(lang);
  const [state, action, pending] = useActionState<QuoteState, FormData>(requestQuoteAction, {});
  const v = state.values ?? {};
  return (
    <form action={action} className="quote-form" data-testid="quote-form">
      <h2>{tx.requestQuote}</h2>
      <p className="muted">{tx.requestIntro}</p>
      {prefill && <p className="muted small">{tx.signedInAs(prefill.email)}</p>}
      <input type="hidden" name="lang" value={lang} />
      <label>
        {tx.name}
        <input name="name" required={!prefill} maxLength={200} defaultValue={v.name ?? prefill?.name ?? ''} />
      </label>
      <label>
        {tx.email}
        <input
          name="email"
          type="email"
          required={!prefill}
          maxLength={320}
          defaultValue={v.email ?? prefill?.email ?? ''}
          readOnly={!!prefill}
        />
      </label>
      <label>
        {tx.company}
        <input
          name="company"
          required={!prefill}
          maxLength={200}
          defaultValue={v.company ?? prefill?.company ?? ''}
        />
      </label>
      <label>
        {tx.phone}
        <input name="phone" type="tel" maxLength={50} defaultValue={v.phone ?? ''} />
      </label>
      <label>
        {tx.remark}
        <textarea name="remark" rows={3} maxLength={2000} defaultValue={v.remark ?? ''} />
      </label>
      {state.error && (
        <p className="error" role="alert">
          {state.error}
        </p>
      )}
      <button type="submit" disabled={pending} data-testid="request-quote">
        {tx.send}
      </button>
    </form>
  );
}
