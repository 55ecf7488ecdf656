import * as m0001 from './0001_aplt_schema';
import * as m0501 from './0501_catalog_supplier_sku';

export const migrations = { '0001_aplt_schema': m0001, '0501_catalog_supplier_sku': m0501 };
