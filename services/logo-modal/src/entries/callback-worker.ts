/** `@aplt/service-logo-modal/callback-worker`: the worker that delivers callbacks to shops. */
export { startCallbackWorker } from '../callbacks/callback.worker';
