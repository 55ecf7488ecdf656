import { env, loadEnv, smtpEnv } from '@aplt/config';
import { startSmtpSink } from '@aplt/testing';
import { describe, expect, it } from 'vitest';
import { createMailer } from '../src';

describe('createMailer', () => {
  it('submits over STARTTLS with MAIL_PASSWORD, from the configured sender', async () => {
    const sink = await startSmtpSink();
    const config = loadEnv(
      { ...smtpEnv, X: env.optionalStr() },
      {
        SMTP_PORT: String(sink.port),
        MAIL_PASSWORD: 's3cret',
        MAIL_FROM_NAME: 'Acme',
        MAIL_FROM_ADDRESS: 'noreply@acme.test',
        SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
      },
    );
    const mailer = createMailer(config);
    try {
      await mailer.send({ to: 'jan@shop.test', subject: 'Hallo', text: 'Tekst' });
      const mail = await sink.waitFor((m) => m.envelope.to.includes('jan@shop.test'));
      expect(mail.secure).toBe(true);
      expect(mail.auth).toEqual({ username: 'noreply@acme.test', password: 's3cret' });
      expect(mail.parsed.from?.value[0]).toEqual({ name: 'Acme', address: 'noreply@acme.test' });
      expect(mail.parsed.subject).toBe('Hallo');
    } finally {
      mailer.close();
      await sink.close();
    }
  });
});
