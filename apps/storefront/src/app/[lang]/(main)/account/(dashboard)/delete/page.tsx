import type { Metadata } from 'next';
import { deleteAccountAction } from '@modules/account/actions';
import { ActionForm } from '@modules/account/components/action-form';
import { CurrentPasswordField } from '@modules/account/components/current-password-field';
import { pageLang } from '@modules/account/page-helpers';
import { at } from '@modules/account/texts';

export const metadata: Metadata = { title: 'Delete account' };

/** Deleting the account: soft delete now, anonymised by the backend's job later; then signed out. */
export default async function DeleteAccountPage({ params }: { params: Promise<{ lang: string }> }) {
  const lang = await pageLang(params);
  const tx = at(lang);
  return (
    <>
      <h1>{tx.deleteAccount}</h1>
      <p>{tx.deleteIntro}</p>
      <ActionForm
        action={deleteAccountAction}
        lang={lang}
        submitLabel={tx.deleteButton}
        danger
        testId="delete-form"
      >
        <CurrentPasswordField label={tx.password} />
        <label className="check">
          <input type="checkbox" name="confirm" required /> {tx.deleteConfirm}
        </label>
      </ActionForm>
    </>
  );
}
