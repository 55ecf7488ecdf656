import * as m0001 from './0001_tenant_registry';
import * as m0002 from './0002_tenant_store_base_url';

export const migrations = {
  '0001_tenant_registry': m0001,
  '0002_tenant_store_base_url': m0002,
};
