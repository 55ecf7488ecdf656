import type { Generated } from 'kysely';

/** The columns of the master aplt DB that this service reads or writes (see 0001_aplt_schema.ts). */
export interface ModalDb {
  aplt_products: {
    id: Generated<string>;
    sku: string;
    name_nl: string;
    name_en: string | null;
    status: string;
    image_url: string | null;
    has_svg_template: boolean;
    svg_template_path: string | null;
  };
  aplt_product_variants: {
    id: Generated<string>;
    product_id: string;
    sku: string;
    color_code: string | null;
    color_name: string | null;
    hex: string | null;
    image_url: string | null;
    is_active: boolean;
  };
  aplt_techniques: {
    id: Generated<string>;
    code: string;
    name_nl: string;
    name_en: string | null;
    max_colours: number | null;
    full_colour: boolean;
    is_active: boolean;
    sort_order: number;
  };
  aplt_print_positions: {
    id: Generated<string>;
    product_id: string;
    position_code: string;
    position_name: string | null;
    max_width_mm: string | null;
    max_height_mm: string | null;
    print_area: string | null;
    coordinates: unknown;
    has_svg_template: boolean;
    svg_template_path: string | null;
    sort_order: number;
  };
  aplt_product_techniques: {
    id: Generated<string>;
    product_id: string;
    technique_id: string;
    print_position_id: string;
    max_colours: number | null;
    is_default: boolean;
    /** This technique's own print size at the position (NULL: the position's applies). */
    max_width_mm: string | null;
    max_height_mm: string | null;
    print_area: string | null;
  };
  aplt_logo_transactions: {
    id: Generated<string>;
    basket_id: string | null;
    customer_id: string | null;
    source: string | null;
    product_sku: string;
    variant_sku: string | null;
    selected_color: string | null;
    technique_code: string | null;
    technique_name: string | null;
    print_area: string | null;
    quantity: number;
    callback_url: string | null;
    callback_status: Generated<'none' | 'pending' | 'delivered' | 'failed'>;
    callback_attempts: Generated<number>;
    callback_delivered_at: Date | null;
    status: Generated<'draft' | 'completed' | 'cancelled'>;
    logo_config: unknown;
    files: unknown;
    completed_at: Date | null;
    cancelled_at: Date | null;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
  aplt_logo_files: {
    id: Generated<string>;
    transaction_id: string;
    kind: FileKind;
    storage_key: string;
    content_type: string;
    size_bytes: number | null;
    sha256: string | null;
    width_px: number | null;
    height_px: number | null;
  };
}

export const fileKinds = [
  'logo_original',
  'logo_sanitized',
  'screenshot',
  'screenshot_hq',
  'pdf',
  'eps',
  'zip',
] as const;
export type FileKind = (typeof fileKinds)[number];
