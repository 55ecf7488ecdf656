'use server';

import { redirect } from 'next/navigation';
import { requestAccess } from '@lib/data/gatekeeper';
import { isLang } from '@lib/i18n';

export interface AccessFormState {
  error?: string;
  values?: Record<string, string>;
}

const field = (form: FormData, name: string, max: number) =>
  String(form.get(name) ?? '')
    .trim()
    .slice(0, max);

/** Files the visitor's access request with the gatekeeper; the page then shows its status. */
export async function submitAccessRequest(_prev: AccessFormState, form: FormData): Promise<AccessFormState> {
  const lang = String(form.get('lang') ?? 'nl');
  const values = {
    name: field(form, 'name', 200),
    company: field(form, 'company', 200),
    email: field(form, 'email', 320),
    message: field(form, 'message', 2000),
  };
  if (!values.name || !values.email || !values.company)
    return { error: 'name, company and e-mail are required', values };
  const res = await requestAccess(values);
  // 409: a request is already pending or approved; the status on the page says which.
  if (!res.ok && res.status !== 409) return { error: res.message, values };
  redirect(`/toegang?lang=${isLang(lang) ? lang : 'nl'}`);
}
