import { type ApltDatabase, isCheckViolation, isUniqueViolation, type Kysely } from '@aplt/db';
import { conflict, notFound, unprocessable } from '@aplt/http';
import { type AuditActor, writeAudit } from '../shared/audit.repository';
import type { CreateTierInput, UpdateTierInput } from './technique-pricing.schemas';
import * as repo from './technique-pricing.repository';

/*
 * Technique pricing: each technique with its price scales and default setup cost. A scale is
 * found by quantity (the highest min_quantity not above the ordered quantity), colours and print
 * area, so two scales of one technique for the same colours and min_quantity must not both hold
 * an area: overlapping area ranges are refused (409), as is a second scale with the very same key
 * (the table's unique key).
 */

type Tier = Awaited<ReturnType<typeof repo.tiersOf>>[number];
type Db = Kysely<ApltDatabase>;

async function attach<T extends { id: number }>(db: Db, techniques: T[]) {
  const ids = techniques.map((t) => t.id);
  const [tiers, setups] = await Promise.all([repo.tiersOf(db, ids), repo.setupCostsOf(db, ids)]);
  return techniques.map((t) => {
    const own = setups.filter((s) => s.technique_id === t.id);
    const base = own.find((s) => s.product_id === null);
    return {
      ...t,
      tiers: tiers.filter((x: Tier) => x.technique_id === t.id),
      setup_cost: base
        ? {
            id: base.id,
            description: base.description,
            setup_cost: base.setup_cost,
            repeat_setup_cost: base.repeat_setup_cost,
            per_colour: base.per_colour,
            per_position: base.per_position,
            is_active: base.is_active,
          }
        : null,
      product_setup_costs: own.length - (base ? 1 : 0),
    };
  });
}

export async function listTechniques(
  db: Db,
  q: {
    q?: string | undefined;
    supplier_code?: string | undefined;
    is_active?: 'true' | 'false' | undefined;
    limit: number;
    offset: number;
  },
  editable: boolean,
) {
  const { rows, count } = await repo.listTechniques(db, {
    ...q,
    is_active: q.is_active === undefined ? undefined : q.is_active === 'true',
  });
  return { data: await attach(db, rows), count, limit: q.limit, offset: q.offset, editable };
}

export async function loadTechnique(db: Db, id: number, editable: boolean) {
  const t = await repo.findTechnique(db, id);
  if (!t) throw notFound(`Technique ${id} not found`);
  const [withTiers] = await attach(db, [t]);
  return { ...withTiers!, editable };
}

/** The fields of `o` that are set: a spread of the rest would overwrite values with undefined. */
function definedFields<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The database's refusals of a scale as the client's errors. */
function refusal(err: unknown): never {
  if (isUniqueViolation(err))
    throw conflict('The technique already has a scale for these colours, area and quantity');
  if (isCheckViolation(err)) throw unprocessable('A value breaks a rule of the technique pricing table');
  throw err;
}

async function checkOverlap(
  db: Db,
  tier: {
    technique_id: number;
    colours: number | null;
    min_quantity: number;
    area_from: string | null;
    area_to: string | null;
  },
  exceptId?: number,
) {
  const other = await repo.overlappingTier(db, tier, exceptId);
  if (other !== undefined)
    throw conflict(
      'Another scale of this technique for the same colours and quantity covers part of this print area',
      { tier_id: other },
    );
}

export async function addTier(db: Db, techniqueId: number, input: CreateTierInput, who: AuditActor) {
  try {
    const tier = await db.transaction().execute(async (trx) => {
      // The technique row serialises writers of its scales, so two overlapping ones cannot both pass.
      if (!(await repo.findTechnique(trx, techniqueId, true)))
        throw notFound(`Technique ${techniqueId} not found`);
      const values = {
        technique_id: techniqueId,
        area_from: input.area_from ?? null,
        area_to: input.area_to ?? null,
        colours: input.colours ?? null,
        min_quantity: input.min_quantity,
        price_per_unit: input.price_per_unit,
        next_colour_price: input.next_colour_price ?? null,
        setup_cost: input.setup_cost ?? '0',
        setup_repeat_cost: input.setup_repeat_cost ?? null,
        small_order_charge: input.small_order_charge ?? null,
        currency: input.currency ?? 'EUR',
        valid_from: input.valid_from ?? null,
        valid_until: input.valid_until ?? null,
      } satisfies repo.NewTier;
      await checkOverlap(trx, values);
      const tier = await repo.insertTier(trx, values);
      await writeAudit(trx, who, {
        action: 'technique_pricing.add',
        entity_type: 'technique_pricing',
        entity_id: tier.id,
        changes: values,
      });
      return tier;
    });
    return { tier, technique: await loadTechnique(db, techniqueId, true) };
  } catch (err) {
    return refusal(err);
  }
}

export async function updateTier(
  db: Db,
  techniqueId: number,
  tierId: number,
  input: UpdateTierInput,
  who: AuditActor,
) {
  try {
    const tier = await db.transaction().execute(async (trx) => {
      if (!(await repo.findTechnique(trx, techniqueId, true)))
        throw notFound(`Technique ${techniqueId} not found`);
      const current = await repo.findTier(trx, techniqueId, tierId);
      if (!current) throw notFound(`Scale ${tierId} of technique ${techniqueId} not found`);
      if (
        input.expected_updated_at !== undefined &&
        current.updated_at.getTime() !== new Date(input.expected_updated_at).getTime()
      )
        throw conflict('The scale was changed by someone else since it was loaded', {
          updated_at: current.updated_at.toISOString(),
        });
      const { expected_updated_at: _e, ...patch } = input;
      const values: repo.TierChanges = definedFields(patch);
      const merged = { ...current, ...values } as typeof current;
      if (
        merged.area_from !== null &&
        merged.area_to !== null &&
        Number(merged.area_to) < Number(merged.area_from)
      )
        throw unprocessable('area_to must not be below area_from', { field: 'area_to' });
      if (merged.valid_from !== null && merged.valid_until !== null && merged.valid_until < merged.valid_from)
        throw unprocessable('valid_until must not be before valid_from', { field: 'valid_until' });
      await checkOverlap(
        trx,
        {
          technique_id: techniqueId,
          colours: merged.colours,
          min_quantity: merged.min_quantity,
          area_from: merged.area_from,
          area_to: merged.area_to,
        },
        tierId,
      );
      if (Object.keys(values).length === 0) return current;
      const tier = await repo.updateTier(trx, tierId, values);
      await writeAudit(trx, who, {
        action: 'technique_pricing.update',
        entity_type: 'technique_pricing',
        entity_id: tierId,
        changes: values,
      });
      return tier;
    });
    return { tier, technique: await loadTechnique(db, techniqueId, true) };
  } catch (err) {
    return refusal(err);
  }
}

export async function removeTier(db: Db, techniqueId: number, tierId: number, who: AuditActor) {
  await db.transaction().execute(async (trx) => {
    if (!(await repo.findTechnique(trx, techniqueId, true)))
      throw notFound(`Technique ${techniqueId} not found`);
    const tier = await repo.findTier(trx, techniqueId, tierId);
    if (!tier) throw notFound(`Scale ${tierId} of technique ${techniqueId} not found`);
    await repo.deleteTier(trx, tierId);
    await writeAudit(trx, who, {
      action: 'technique_pricing.delete',
      entity_type: 'technique_pricing',
      entity_id: tierId,
      changes: tier,
    });
  });
}
