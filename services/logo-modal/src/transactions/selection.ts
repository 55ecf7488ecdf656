import { unprocessable } from '@aplt/http';
import type { Kysely } from 'kysely';
import type { ProductForModal, UsablePosition, UsableTechnique } from '../catalog/catalog.service';
import type { ModalDb } from '../db-types';
import { type TransactionRow, updateTransaction } from './transaction.repository';
import type { LogoConfigInput } from './transaction.service';

export interface AddToOrderInput {
  variantSku?: string;
  selectedColor?: string;
  techniqueCode?: string;
  quantity?: number;
  logoConfig?: LogoConfigInput;
}

/** What 'Add to Order' prints: the product, technique, position and variant, checked. */
export interface Selection {
  loaded: ProductForModal;
  technique: UsableTechnique;
  position: UsablePosition;
  variantSku: string;
  colorName: string;
  hex: string | null;
}

/** The selection, checked against the catalog: the print area always comes from the catalog. */
export function resolveSelection(
  loaded: ProductForModal,
  tx: TransactionRow,
  input: AddToOrderInput,
): Selection {
  const cfg = { ...(tx.logo_config as LogoConfigInput), ...(input.logoConfig ?? {}) };
  const code = input.techniqueCode ?? cfg.techniqueCode ?? tx.technique_code;
  const technique =
    loaded.techniques.find((t) => t.code === code) ?? (code ? undefined : loaded.techniques[0]);
  if (!technique)
    throw unprocessable(`Technique ${code ?? '(none)'} has no print coordinates for ${tx.product_sku}`);
  const position =
    technique.positions.find((p) => p.code === cfg.position) ?? (technique.positions[0] as UsablePosition);
  const variantSku = input.variantSku ?? tx.variant_sku ?? tx.product_sku;
  const variant = loaded.variants.find((v) => v.sku === variantSku);
  if (variantSku !== tx.product_sku && !variant) {
    throw unprocessable(`Variant ${variantSku} does not belong to product ${tx.product_sku}`);
  }
  return {
    loaded,
    technique,
    position,
    variantSku,
    colorName: variant?.colorName ?? '',
    hex: variant?.hex ?? null,
  };
}

/** Fixes the selection on the transaction (the print area from the catalog, never the browser's). */
export async function applySelection(
  db: Kysely<ModalDb>,
  tx: TransactionRow,
  sel: Selection,
  input: AddToOrderInput,
) {
  const logoConfig = {
    ...(tx.logo_config as object),
    ...(input.logoConfig ?? {}),
    logoUrl: `/api/transactions/${tx.id}/logo`,
    techniqueCode: sel.technique.code,
    techniqueName: sel.technique.name,
    position: sel.position.code,
    printArea: sel.position.printArea,
  };
  const patch = {
    variant_sku: sel.variantSku,
    selected_color: input.selectedColor ?? sel.colorName,
    technique_code: sel.technique.code,
    technique_name: sel.technique.name,
    print_area: sel.position.printArea,
    quantity: input.quantity ?? tx.quantity,
    logo_config: logoConfig,
  };
  await updateTransaction(db, tx.id, patch);
  return { ...tx, ...patch } as TransactionRow;
}
