import type { ApltDatabase, Kysely } from '@aplt/db';
import type { Config } from '../config';
import { D, type Decimal, round2 } from '../shared/money';
import { readSettings } from './settings.repository';

export interface ShippingRules {
  francoLimit: Decimal;
  defaultCost: Decimal;
  /** Per-box pricing applies only when both are configured. */
  perBoxCost: Decimal | null;
  unitsPerBox: number | null;
}

/** aplt_settings rows override the APLT_* env defaults (spec 1: franco pricing). */
export async function loadShippingRules(db: Kysely<ApltDatabase>, config: Config): Promise<ShippingRules> {
  const s = await readSettings(db, [
    'franco_limit',
    'shipping_cost_default',
    'shipping_cost_per_box',
    'units_per_box',
  ]);
  const num = (v: string | undefined) =>
    v !== undefined && /^\d+(\.\d+)?$/.test(v.trim()) ? D(v.trim()) : null;
  const units = num(s.get('units_per_box'));
  return {
    francoLimit: num(s.get('franco_limit')) ?? D(config.APLT_FRANCO_LIMIT),
    defaultCost: num(s.get('shipping_cost_default')) ?? D(config.APLT_SHIPPING_COST_DEFAULT),
    perBoxCost: num(s.get('shipping_cost_per_box')),
    unitsPerBox: units && units.gt(0) ? units.floor().toNumber() : null,
  };
}

/**
 * B2B franco (spec 1: "shipping is free above a threshold"): free when the goods value excl. VAT
 * is strictly above the franco limit; at or below it a per-box cost when boxes are configured
 * (ceil(units / units_per_box) boxes), else the default cost. No goods, no shipping.
 */
export function shippingCost(rules: ShippingRules, goodsValue: Decimal, units: number): Decimal {
  if (units <= 0 || goodsValue.lte(0)) return D(0);
  if (goodsValue.gt(rules.francoLimit)) return D(0);
  if (rules.perBoxCost && rules.unitsPerBox) {
    return round2(rules.perBoxCost.times(Math.ceil(units / rules.unitsPerBox)));
  }
  return round2(rules.defaultCost);
}
