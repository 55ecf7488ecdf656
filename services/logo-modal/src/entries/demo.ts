/** `@aplt/service-logo-modal/demo`: the demo products of the modal (fleet seed, benchmark). */
export { toteTemplate, upsertDemoCatalog } from '../demo/demo-catalog';
