import * as m0001 from './0001_aplt_schema';
import * as m0501 from './0501_catalog_supplier_sku';
import * as m0502 from './0502_catalog_store_details';
import * as m0510 from './0510_catalog_deferred_search';
import * as m0511 from './0511_catalog_variant_indexes';
import * as m0512 from './0512_catalog_technique_print_size';
import * as m0513 from './0513_catalog_sku_registry_by_sku';
import * as m0514 from './0514_catalog_price_variant_index';
import * as m0515 from './0515_catalog_price_keys_per_statement';
import * as m0516 from './0516_catalog_position_technique_keys_per_statement';
import * as m0517 from './0517_catalog_search_source_changes';
import * as m0518 from './0518_catalog_product_feed_fingerprints';
import * as m0901 from './0901_store_returns';
import * as m0902 from './0902_store_carts';
import * as m0910 from './0910_subscription_billing';
import * as m0920 from './0920_partner_sync';
import * as m0930 from './0930_dev_project_builds';
import * as m0940 from './0940_partner_sync_keys_required';
import * as m0950 from './0950_customer_totp';

export const migrations = {
  '0001_aplt_schema': m0001,
  '0501_catalog_supplier_sku': m0501,
  '0502_catalog_store_details': m0502,
  '0510_catalog_deferred_search': m0510,
  '0511_catalog_variant_indexes': m0511,
  '0512_catalog_technique_print_size': m0512,
  '0513_catalog_sku_registry_by_sku': m0513,
  '0514_catalog_price_variant_index': m0514,
  '0515_catalog_price_keys_per_statement': m0515,
  '0516_catalog_position_technique_keys_per_statement': m0516,
  '0517_catalog_search_source_changes': m0517,
  '0518_catalog_product_feed_fingerprints': m0518,
  '0901_store_returns': m0901,
  '0902_store_carts': m0902,
  '0910_subscription_billing': m0910,
  '0920_partner_sync': m0920,
  '0930_dev_project_builds': m0930,
  '0940_partner_sync_keys_required': m0940,
  '0950_customer_totp': m0950,
};
