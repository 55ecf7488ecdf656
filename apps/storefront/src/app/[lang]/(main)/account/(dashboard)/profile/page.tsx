import type { Metadata } from 'next';
import Link from 'next/link';
import { retrieveCustomer } from '@lib/data/customer';
import { avatarAction, profileAction, removeAvatarAction } from '@modules/account/actions';
import { ActionForm } from '@modules/account/components/action-form';
import { ImageFileInput } from '@modules/account/components/file-input';
import { pageLang } from '@modules/account/page-helpers';
import { at } from '@modules/account/texts';

export const metadata: Metadata = { title: 'Profile' };

/** Name, company, phone, preferred language, notification settings and the avatar. */
export default async function ProfilePage({ params }: { params: Promise<{ lang: string }> }) {
  const lang = await pageLang(params);
  const tx = at(lang);
  const c = await retrieveCustomer();
  if (!c) return null;
  return (
    <>
      <h1>{tx.profile}</h1>
      <div className="profile-grid">
        <ActionForm action={profileAction} lang={lang} submitLabel={tx.save} testId="profile-form">
          <div className="field-row">
            <label className="field">
              <span>{tx.firstName}</span>
              <input
                name="first_name"
                defaultValue={c.first_name ?? ''}
                maxLength={200}
                autoComplete="given-name"
              />
            </label>
            <label className="field">
              <span>{tx.lastName}</span>
              <input
                name="last_name"
                defaultValue={c.last_name ?? ''}
                maxLength={200}
                autoComplete="family-name"
              />
            </label>
          </div>
          <label className="field">
            <span>{tx.company}</span>
            <input
              name="company_name"
              defaultValue={c.company_name ?? ''}
              maxLength={200}
              autoComplete="organization"
            />
          </label>
          <label className="field">
            <span>{tx.phone}</span>
            <input
              name="phone"
              type="tel"
              defaultValue={c.phone ?? ''}
              maxLength={40}
              pattern="[0-9+()./\s\-]*"
              autoComplete="tel"
            />
          </label>
          <label className="field">
            <span>{tx.email}</span>
            <input value={c.email} readOnly disabled />
          </label>
          <label className="field">
            <span>{tx.language}</span>
            <select name="preferred_language" defaultValue={c.preferred_language}>
              {(['nl', 'en', 'de'] as const).map((l) => (
                <option key={l} value={l}>
                  {tx.languages[l]}
                </option>
              ))}
            </select>
          </label>
          <fieldset className="checks">
            <legend>{tx.notifications}</legend>
            <label className="check">
              <input type="checkbox" name="notify_orders" defaultChecked={c.notifications.orders} />{' '}
              {tx.notifyOrders}
            </label>
            <label className="check">
              <input type="checkbox" name="notify_quotes" defaultChecked={c.notifications.quotes} />{' '}
              {tx.notifyQuotes}
            </label>
            <label className="check">
              <input type="checkbox" name="notify_newsletter" defaultChecked={c.notifications.newsletter} />{' '}
              {tx.notifyNewsletter}
            </label>
          </fieldset>
        </ActionForm>
        <section className="avatar-box">
          <h2>{tx.avatar}</h2>
          {c.avatar_url ? (
            <img
              src={`/${lang}/account/profile/avatar?v=${encodeURIComponent(c.updated_at)}`}
              alt={tx.avatar}
              className="avatar large"
              data-testid="avatar"
            />
          ) : (
            <span className="avatar large placeholder-avatar" aria-hidden>
              {(c.first_name ?? c.email).charAt(0).toUpperCase()}
            </span>
          )}
          <ActionForm action={avatarAction} lang={lang} submitLabel={tx.upload} testId="avatar-form">
            <ImageFileInput
              name="file"
              maxFiles={1}
              maxBytes={2 * 1024 * 1024}
              label={tx.avatarHint}
              messages={{ tooMany: tx.avatarType, tooLarge: tx.avatarTooLarge, type: tx.avatarType }}
            />
          </ActionForm>
          {c.avatar_url && (
            <ActionForm
              action={removeAvatarAction}
              lang={lang}
              submitLabel={tx.removeAvatar}
              className="account-form secondary"
            >
              {null}
            </ActionForm>
          )}
        </section>
      </div>
      <p className="muted">
        <Link href={`/${lang}/account/delete`}>{tx.deleteAccount}</Link>
      </p>
    </>
  );
}
