import type { ApltDatabase, CommerceDatabase, TenantRecord } from '@aplt/db';
import { notFound } from '@aplt/http';
import type { QueueClient } from '@aplt/queue';
import { checkCredentials } from '../shared/credentials.service';
import type { AuthDeps } from '../shared/deps';
import * as repo from './account.repository';
import { checkImage } from '@aplt/images';

export const LANGUAGES = ['nl', 'en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Spec 1: orders and quotes on, newsletter off until the customer opts in. */
export const DEFAULT_NOTIFICATIONS = { orders: true, quotes: true, newsletter: false };
export type Notifications = typeof DEFAULT_NOTIFICATIONS;

/** Spec 1 limit: an avatar of at most 2 MB, JPEG or PNG. */
export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;
const AVATAR_MAX_PIXELS = 25_000_000;
/** Avatars are shown small; they are stored at most this many pixels on a side. */
const AVATAR_SIDE = 512;

export const AVATAR_PATH = '/store/customers/me/avatar';

/** A customer's account: one registration made, so with an e-mail. */
export type Account = repo.AccountRow & { email: string };

export function profileView(a: Account) {
  const m = a.metadata ?? {};
  const language = LANGUAGES.find((l) => l === m.preferred_language) ?? 'nl';
  const n = (m.notifications ?? {}) as Partial<Notifications>;
  return {
    id: a.id,
    email: a.email,
    first_name: a.first_name,
    last_name: a.last_name,
    phone: a.phone,
    company_name: a.company_name,
    email_verified: Boolean(m.email_verified_at),
    preferred_language: language,
    notifications: {
      orders: typeof n.orders === 'boolean' ? n.orders : DEFAULT_NOTIFICATIONS.orders,
      quotes: typeof n.quotes === 'boolean' ? n.quotes : DEFAULT_NOTIFICATIONS.quotes,
      newsletter: typeof n.newsletter === 'boolean' ? n.newsletter : DEFAULT_NOTIFICATIONS.newsletter,
    },
    avatar_url: typeof m.avatar_url === 'string' ? m.avatar_url : null,
    created_at: a.created_at,
    updated_at: a.updated_at,
  };
}
export type Profile = ReturnType<typeof profileView>;

async function account(deps: AuthDeps, tenant: TenantRecord, customerId: string): Promise<Account> {
  const a = await repo.findAccount(deps.databases.commerce<CommerceDatabase>(tenant), customerId);
  // requireActor already refused deleted customers; a row gone in between reads as not found, and
  // so would a customer without an e-mail (not one made by registration: it has no account).
  if (!a || a.email === null) throw notFound('Customer not found');
  return { ...a, email: a.email };
}

export async function getProfile(deps: AuthDeps, tenant: TenantRecord, customerId: string): Promise<Profile> {
  return profileView(await account(deps, tenant, customerId));
}

export interface ProfilePatch {
  first_name?: string | null | undefined;
  last_name?: string | null | undefined;
  phone?: string | null | undefined;
  company_name?: string | null | undefined;
  preferred_language?: Language | undefined;
  notifications?: Partial<Notifications> | undefined;
}

/**
 * Changes the profile. Language and notification settings are kept in the customer's metadata
 * (spec 1) and copied to the matching aplt customer, whose language the documents print in.
 */
export async function updateProfile(
  deps: AuthDeps,
  tenant: TenantRecord,
  customerId: string,
  patch: ProfilePatch,
): Promise<Profile> {
  const current = profileView(await account(deps, tenant, customerId));
  const columns = Object.fromEntries(
    (['first_name', 'last_name', 'phone', 'company_name'] as const)
      .filter((k) => patch[k] !== undefined)
      .map((k) => [k, patch[k] === '' ? null : patch[k]]),
  );
  const notifications = patch.notifications
    ? { ...current.notifications, ...patch.notifications }
    : undefined;
  const metadata = {
    ...(patch.preferred_language ? { preferred_language: patch.preferred_language } : {}),
    ...(notifications ? { notifications } : {}),
  };
  await repo.updateAccount(deps.databases.commerce<CommerceDatabase>(tenant), customerId, columns, metadata);
  await repo.syncApltPreferences(deps.databases.aplt<ApltDatabase>(tenant), current.email, metadata);
  return getProfile(deps, tenant, customerId);
}

/** Stores the checked, re-encoded avatar and points avatar_url at it (versioned by its digest). */
export async function setAvatar(deps: AuthDeps, tenant: TenantRecord, customerId: string, upload: Buffer) {
  await account(deps, tenant, customerId);
  const image = await checkImage(upload, {
    label: 'The avatar',
    maxPixels: AVATAR_MAX_PIXELS,
    maxSide: AVATAR_SIDE,
  });
  const db = deps.databases.commerce<CommerceDatabase>(tenant);
  await db.transaction().execute(async (trx) => {
    await repo.putAvatar(trx, customerId, image);
    await repo.updateAccount(
      trx,
      customerId,
      {},
      { avatar_url: `${AVATAR_PATH}?v=${image.sha256.slice(0, 16)}` },
    );
  });
  return getProfile(deps, tenant, customerId);
}

export async function removeAvatar(deps: AuthDeps, tenant: TenantRecord, customerId: string) {
  await account(deps, tenant, customerId);
  const db = deps.databases.commerce<CommerceDatabase>(tenant);
  await db.transaction().execute(async (trx) => {
    await repo.deleteAvatar(trx, customerId);
    await repo.removeMetadataKey(trx, customerId, 'avatar_url');
  });
  return getProfile(deps, tenant, customerId);
}

export async function getAvatar(deps: AuthDeps, tenant: TenantRecord, customerId: string) {
  const avatar = await repo.findAvatar(deps.databases.commerce<CommerceDatabase>(tenant), customerId);
  if (!avatar) throw notFound('No avatar');
  return avatar;
}

// BullMQ job ids may not contain a colon.
export const anonymiseJobId = (tenantId: string, customerId: string) => `anonymise.${tenantId}.${customerId}`;

/**
 * Deletes the account the password confirms: a soft delete now (every token of the customer
 * stops working on its next use, sign-in finds no identity), the personal data anonymised by a
 * delayed job after the configured number of days. Documents are kept.
 */
export async function deleteAccount(
  deps: AuthDeps,
  queue: QueueClient,
  tenant: TenantRecord,
  customerId: string,
  password: string,
): Promise<{ anonymiseAt: Date }> {
  const a = await account(deps, tenant, customerId);
  // Counted against the account's lockout like a sign-in; a wrong password is a 401.
  await checkCredentials(deps, tenant, a.email, password);
  await repo.softDeleteCustomer(deps.databases.commerce<CommerceDatabase>(tenant), customerId);
  await repo.softDeleteApltCustomer(deps.databases.aplt<ApltDatabase>(tenant), a.email);
  const delayMs = deps.config.ACCOUNT_ANONYMISE_AFTER_DAYS * 86_400_000;
  await queue.enqueue(
    'customer-accounts',
    'customer.anonymise',
    { tenantId: tenant.id, customerId },
    { delay: delayMs, jobId: anonymiseJobId(tenant.id, customerId) },
  );
  return { anonymiseAt: new Date(Date.now() + delayMs) };
}
