/**
 * `@aplt/service-catalog/connectors`: supplier connectors and their recorded runs, for the fleet's
 * demo seed and the import benchmark.
 */
export { findConnector, parsersByFormat, supplierCodes } from '../connectors/connector-registry';
export { runConnector } from '../connectors/connector-run.service';
export { createRun, getRun } from '../connectors/sync-run.repository';
