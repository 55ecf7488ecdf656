'use client';

import { type FormEvent, type ReactNode, startTransition, useActionState } from 'react';
import type { FormState } from '../actions';

type Action = (prev: FormState, form: FormData) => Promise<FormState>;

function Submit({
  label,
  danger,
  pending,
}: {
  label: string;
  danger?: boolean | undefined;
  pending: boolean;
}) {
  return (
    <button type="submit" disabled={pending} className={danger ? 'danger' : undefined} aria-busy={pending}>
      {label}
    </button>
  );
}

/** The message a form's action answered: an error (role alert) or a confirmation (role status). */
export function FormMessage({ state }: { state: FormState }) {
  if (state.error)
    return (
      <p className="form-message error" role="alert" data-testid="form-error">
        {state.error}
      </p>
    );
  if (state.ok)
    return (
      <p className="form-message ok" role="status" data-testid="form-ok">
        {state.ok}
      </p>
    );
  return null;
}

/**
 * A form posting to a server action, with its fields rendered on the server. It works without
 * scripts (the action's answer re-renders the page); with them, the button shows it is busy and
 * the answer's message appears above the button.
 */
export function ActionForm({
  action,
  lang,
  submitLabel,
  children,
  className,
  danger,
  testId,
  hideOnOk,
}: {
  action: Action;
  lang: string;
  submitLabel: string;
  children?: ReactNode;
  className?: string;
  danger?: boolean;
  testId?: string;
  /** Replace the form by its confirmation once it succeeded (accepting a quotation, say). */
  hideOnOk?: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  // React resets a form after its `action` ran: a refused sign-up would lose everything typed.
  // With scripts the action is called here instead, which leaves the fields as they are.
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    startTransition(() => formAction(data));
  };
  if (hideOnOk && state.ok) return <FormMessage state={state} />;
  return (
    <form
      action={formAction}
      onSubmit={onSubmit}
      className={className ?? 'account-form'}
      data-testid={testId}
    >
      <input type="hidden" name="lang" value={lang} />
      {children}
      <FormMessage state={state} />
      <Submit label={submitLabel} danger={danger} pending={pending} />
    </form>
  );
}
