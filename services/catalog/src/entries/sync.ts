/**
 * `@aplt/service-catalog/sync`: the supplier catalog synced into a commerce database and copied
 * to other tenants, for the fleet's demo seed and the import benchmark.
 */
export { syncCommerceCatalog } from '../sync/commerce-sync.service';
export { recordTenantUpdate } from '../sync/tenant-registry.repository';
export { copyCatalog } from '../sync/tenant-update.service';
