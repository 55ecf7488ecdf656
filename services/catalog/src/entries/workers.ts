/** `@aplt/service-catalog/workers`: the catalog's queue workers, for hosts other than src/worker.ts. */
export { startCatalogWorkers, type WorkerDeps } from '../workers';
