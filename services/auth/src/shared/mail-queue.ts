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

/**
 * The Message-ID of a queued mail: one per job, the same on every attempt. A crash after the SMTP
 * server took the message but before the job completed sends it again; receivers that deduplicate
 * by Message-ID then show it once. `domain` is the sender's.
 */
export const queuedMessageId = (prefix: string, jobId: string, domain: string) =>
  `<mail-${encodeURIComponent(prefix)}-${encodeURIComponent(jobId)}@${domain}>`;

export function startMailWorker(
  smtp: Mailer,
  opts: { connection: Redis; prefix: string; senderDomain: string },
): WorkerHandle {
  const { senderDomain, ...connection } = opts;
  return startWorker(
    'mail',
    {
      'mail.send': (mail, job) =>
        smtp.send({ ...mail, messageId: queuedMessageId(opts.prefix, String(job.id), senderDomain) }),
    },
    { ...connection, concurrency: 4 },
  );
}
