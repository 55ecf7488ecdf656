import { compiledSchematron } from './einvoice-validation';

/**
 * Compiles the EN 16931 and Peppol Schematron into the SEF cache before the test run
 * (deploy/test.sh), so the test files that validate e-invoices find it instead of each
 * compiling it in parallel on a cold machine. A warm cache makes this a no-op.
 */
const started = Date.now();
await Promise.all([compiledSchematron('cen'), compiledSchematron('peppol')]);
console.log(`e-invoice Schematron ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
