import type { ApltDatabase, Kysely } from '@aplt/db';
import { conflict } from '@aplt/http';
import type { Config } from '../config';
import { recordAudit } from '../shared/audit.service';
import { inTransaction } from '../shared/in-transaction';
import {
  type ParameterKey,
  parameterCatalog,
  parameterKeys,
  type UpdateParametersInput,
} from './parameter.schemas';
import * as repo from './settings.repository';
import { loadShippingRules } from './shipping.service';

/** What applies to a key without a row of its own. */
function defaults(config: Config): Record<ParameterKey, string | null> {
  return {
    franco_limit: config.APLT_FRANCO_LIMIT,
    shipping_cost_default: config.APLT_SHIPPING_COST_DEFAULT,
    shipping_cost_per_box: null,
    units_per_box: null,
  };
}

const known = new Set<string>(parameterKeys);
const newest = (dates: Date[]) =>
  dates.length ? new Date(Math.max(...dates.map((d) => d.getTime()))) : null;

export async function loadParameters(db: Kysely<ApltDatabase>, config: Config) {
  const [rows, vatCodes, paymentTerms, rules] = await Promise.all([
    repo.listSettings(db),
    repo.listVatCodes(db),
    repo.listPaymentTerms(db),
    loadShippingRules(db, config),
  ]);
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const fallback = defaults(config);
  // What the shipping rules actually use (a malformed stored value falls back to the default).
  const effective: Record<ParameterKey, string | null> = {
    franco_limit: rules.francoLimit.toFixed(2),
    shipping_cost_default: rules.defaultCost.toFixed(2),
    shipping_cost_per_box: rules.perBoxCost?.toFixed(2) ?? null,
    units_per_box: rules.unitsPerBox === null ? null : String(rules.unitsPerBox),
  };
  const stored = rows.filter((r) => known.has(r.key));
  return {
    parameters: parameterKeys.map((key) => {
      const row = byKey.get(key);
      return {
        key,
        type: parameterCatalog[key].type,
        value: row?.value ?? null,
        default: fallback[key],
        effective: effective[key],
        description: parameterCatalog[key].description,
        updated_at: row?.updated_at ?? null,
      };
    }),
    updated_at: newest(stored.map((r) => r.updated_at)),
    // A secret (the partner password) is never read back: its row shows without a value.
    other_settings: rows
      .filter((r) => !known.has(r.key))
      .map((r) => (r.value_type === 'secret' ? { ...r, value: null } : r)),
    vat_codes: vatCodes,
    payment_terms: paymentTerms,
  };
}

/** Sets (or with null, removes) the given parameters in one transaction, with an audit row. */
export async function updateParameters(
  db: Kysely<ApltDatabase>,
  config: Config,
  input: UpdateParametersInput,
  who: { actor: string | null; request_id?: string; ip?: string; user_agent?: string | null },
) {
  await inTransaction(db, async (trx) => {
    await repo.lockSettings(trx);
    const rows = await repo.listSettings(trx);
    const current = new Map(rows.filter((r) => known.has(r.key)).map((r) => [r.key, r]));
    if (input.expected_updated_at !== undefined) {
      const now = newest([...current.values()].map((r) => r.updated_at));
      const expected = input.expected_updated_at === null ? null : new Date(input.expected_updated_at);
      if ((now?.getTime() ?? null) !== (expected?.getTime() ?? null))
        throw conflict('The parameters were changed by someone else since they were loaded', {
          updated_at: now?.toISOString() ?? null,
        });
    }
    const changes: Record<string, { from: string | null; to: string | null }> = {};
    for (const key of parameterKeys) {
      const value = input.values[key];
      if (value === undefined) continue;
      const from = current.get(key)?.value ?? null;
      if (from === value) continue;
      changes[key] = { from, to: value };
      if (value === null) await repo.deleteSetting(trx, key);
      else
        await repo.upsertSetting(trx, {
          key,
          value,
          value_type: 'number',
          description: parameterCatalog[key].description,
        });
    }
    if (Object.keys(changes).length)
      await recordAudit(trx, {
        actor: who.actor,
        actor_type: 'admin',
        action: 'parameters.update',
        entity_type: 'settings',
        entity_id: null,
        changes,
        ip: who.ip ?? null,
        user_agent: who.user_agent ?? null,
        request_id: who.request_id ?? null,
      });
  });
  return loadParameters(db, config);
}
