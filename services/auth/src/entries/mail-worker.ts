/** `@aplt/service-auth/mail-worker`: the worker that sends auth's queued mail. */
export { startMailWorker } from '../shared/mail-queue';
