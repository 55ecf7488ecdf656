import type { Mail, Mailer } from '@aplt/mail';
import { type QueueClient, type Redis, startWorker, type WorkerHandle } from '@aplt/queue';

/**
 * The auth service's mailer: a message goes onto the `mail` queue and the mail worker hands it
 * to SMTP with retries. A reset or verification e-mail thus survives an SMTP outage and a
 * restart of this service. Sent messages are removed at once: they carry live reset links.
 */
export function queuedMailer(queue: QueueClient): Mailer {
  return {
    async send(mail: Mail) {
      await queue.enqueue('mail', 'mail.send', mail, { removeOnComplete: true });
    },
    close() {},
  };
}

export function startMailWorker(smtp: Mailer, opts: { connection: Redis; prefix: string }): WorkerHandle {
  return startWorker('mail', { 'mail.send': (mail) => smtp.send(mail) }, { ...opts, concurrency: 4 });
}
