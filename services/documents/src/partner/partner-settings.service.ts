import type { ApltDatabase, Kysely } from '@aplt/db';
import { unprocessable } from '@aplt/http';
import { recordAudit } from '../shared/audit.service';
import { inTransaction } from '../shared/in-transaction';
import * as settings from '../settings/settings.repository';
import type { PartnerCredentials } from './partner-client';
import { openCredential, sealCredential } from './credential-box';
import type { PartnerSettingsInput } from './partner.schemas';

/*
 * The tenant's partner settings, kept where the service keeps every tenant setting
 * (aplt_settings): address, user name, the password (value_type `secret`, sealed, never read back
 * by a route), the enabled flag and the suppliers whose products the partner fulfils.
 */

const KEYS = {
  enabled: 'partner_enabled',
  baseUrl: 'partner_base_url',
  username: 'partner_username',
  password: 'partner_password',
  suppliers: 'partner_supplier_codes',
} as const;
const ALL_KEYS = Object.values(KEYS);

export interface PartnerSettings {
  enabled: boolean;
  baseUrl: string | null;
  username: string | null;
  sealedPassword: string | null;
  supplierCodes: string[];
}

function parseCodes(raw: string | undefined): string[] {
  if (!raw) return [];
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v)
      ? v.filter((c): c is string => typeof c === 'string' && /^[0-9]{2}$/.test(c))
      : [];
  } catch {
    return [];
  }
}

export async function readPartnerSettings(db: Kysely<ApltDatabase>): Promise<PartnerSettings> {
  const m = await settings.readSettings(db, ALL_KEYS);
  return {
    enabled: m.get(KEYS.enabled) === 'true',
    baseUrl: m.get(KEYS.baseUrl) ?? null,
    username: m.get(KEYS.username) ?? null,
    sealedPassword: m.get(KEYS.password) ?? null,
    supplierCodes: parseCodes(m.get(KEYS.suppliers)),
  };
}

/** What a GET shows: never the password. */
export function settingsView(s: PartnerSettings) {
  return {
    enabled: s.enabled,
    base_url: s.baseUrl,
    username: s.username,
    password_set: s.sealedPassword !== null,
    supplier_codes: s.supplierCodes,
  };
}

/** Whether the settings are complete enough to send (enabled, address, user, password, suppliers). */
export const isActive = (s: PartnerSettings) =>
  s.enabled && !!s.baseUrl && !!s.username && !!s.sealedPassword && s.supplierCodes.length > 0;

/** The credentials to log in with, or a sentence saying what is missing. */
export function credentialsOf(
  s: PartnerSettings,
  masterSecret: string,
  tenantId: string,
): PartnerCredentials | { problem: string } {
  if (!s.baseUrl || !s.username || !s.sealedPassword)
    return { problem: 'partner settings incomplete (address, user name and password are needed)' };
  const password = openCredential(masterSecret, tenantId, s.sealedPassword);
  if (password === null)
    return {
      problem: 'the stored partner password cannot be read (the service secret changed): enter it again',
    };
  return { baseUrl: s.baseUrl, username: s.username, password };
}

export async function updatePartnerSettings(
  db: Kysely<ApltDatabase>,
  input: PartnerSettingsInput,
  who: {
    tenantId: string;
    masterSecret: string;
    actor: string | null;
    request_id?: string;
    ip?: string;
    user_agent?: string | null;
  },
) {
  return inTransaction(db, async (trx) => {
    await settings.lockSettings(trx);
    const current = await readPartnerSettings(trx);
    const next: PartnerSettings = {
      enabled: input.enabled ?? current.enabled,
      baseUrl: input.base_url === undefined ? current.baseUrl : input.base_url,
      username: input.username === undefined ? current.username : input.username,
      sealedPassword:
        input.password === undefined
          ? current.sealedPassword
          : input.password === null
            ? null
            : sealCredential(who.masterSecret, who.tenantId, input.password),
      supplierCodes: input.supplier_codes ? [...new Set(input.supplier_codes)].sort() : current.supplierCodes,
    };
    if (next.enabled && !isActive(next)) {
      const missing = [
        !next.baseUrl && 'base_url',
        !next.username && 'username',
        !next.sealedPassword && 'password',
        !next.supplierCodes.length && 'supplier_codes',
      ].filter(Boolean);
      throw unprocessable(`The partner sync cannot be enabled without: ${missing.join(', ')}`, { missing });
    }
    const write = async (key: string, value: string | null, value_type: string, description: string) => {
      if (value === null) await settings.deleteSetting(trx, key);
      else await settings.upsertSetting(trx, { key, value, value_type, description });
    };
    await write(KEYS.enabled, String(next.enabled), 'boolean', 'Partner fulfilment sync on or off.');
    await write(KEYS.baseUrl, next.baseUrl, 'string', 'Base address of the partner fulfilment API.');
    await write(KEYS.username, next.username, 'string', 'User name of the partner API token login.');
    await write(
      KEYS.password,
      next.sealedPassword,
      'secret',
      'Password of the partner API (sealed, never shown).',
    );
    await write(
      KEYS.suppliers,
      JSON.stringify(next.supplierCodes),
      'json',
      'Supplier codes whose products the partner fulfils (an order line of such a product is a partner line).',
    );
    // The audit row names what changed, never the password's value.
    const changes: Record<string, unknown> = {};
    if (next.enabled !== current.enabled) changes.enabled = { from: current.enabled, to: next.enabled };
    if (next.baseUrl !== current.baseUrl) changes.base_url = { from: current.baseUrl, to: next.baseUrl };
    if (next.username !== current.username) changes.username = { from: current.username, to: next.username };
    if (input.password !== undefined) changes.password = input.password === null ? 'removed' : 'changed';
    if (JSON.stringify(next.supplierCodes) !== JSON.stringify(current.supplierCodes))
      changes.supplier_codes = { from: current.supplierCodes, to: next.supplierCodes };
    if (Object.keys(changes).length)
      await recordAudit(trx, {
        actor: who.actor,
        actor_type: 'admin',
        action: 'partner.settings.update',
        entity_type: 'settings',
        entity_id: null,
        changes,
        ip: who.ip ?? null,
        user_agent: who.user_agent ?? null,
        request_id: who.request_id ?? null,
      });
    return settingsView(next);
  });
}
