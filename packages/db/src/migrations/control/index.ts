import * as m0001 from './0001_tenant_registry';

export const migrations = { '0001_tenant_registry': m0001 };
