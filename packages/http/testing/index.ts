/**
 * The test harness of the HTTP layer, published as `@aplt/http/testing`: this test process's fleet
 * secrets and the identity assertion the proxy adds after the access service allowed a request.
 */
export { testSecrets, viaProxy } from './secrets';
