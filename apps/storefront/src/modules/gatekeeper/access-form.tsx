'use client';

import { useActionState } from 'react';
import { type AccessFormState, submitAccessRequest } from './actions';
import type { GateTexts } from './texts';

export function AccessForm({ lang, tx }: { lang: string; tx: GateTexts }) {
  const [state, action, pending] = useActionState<AccessFormState, FormData>(submitAccessRequest, {});
  const v = state.values ?? {};
  return (
    <form action={action} className="access-form">
      <input type="hidden" name="lang" value={lang} />
      <label>
        {tx.name}
        <input name="name" required maxLength={200} autoComplete="name" defaultValue={v.name} />
      </label>
      <label>
        {tx.company}
        <input name="company" required maxLength={200} autoComplete="organization" defaultValue={v.company} />
      </label>
      <label>
        {tx.email}
        <input
          name="email"
          type="email"
          required
          maxLength={320}
          autoComplete="email"
          defaultValue={v.email}
        />
      </label>
      <label>
        {tx.reason}
        <textarea name="message" rows={4} maxLength={2000} defaultValue={v.message} />
      </label>
      {state.error && (
        <p className="error" role="alert">
          {state.error}
        </p>
      )}
      <button type="submit" disabled={pending}>
        {tx.submit}
      </button>
    </form>
  );
}
