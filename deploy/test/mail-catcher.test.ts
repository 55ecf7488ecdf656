import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMailer } from '@aplt/mail';
import { afterAll, describe, expect, it } from 'vitest';
import { startMailCatcher } from '../fleet/mail-catcher';

describe("the fleet's mail catcher", () => {
  const dir = mkdtempSync(join(tmpdir(), 'mail-catcher-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('outlives a sender that dies mid-session, and keeps taking mail', async () => {
    const lines: string[] = [];
    const catcher = await startMailCatcher(dir, (l) => lines.push(l));
    try {
      // A service killed while it talks SMTP over STARTTLS: its connection is reset, not closed.
      const reply = (socket: Socket | TLSSocket) =>
        new Promise<string>((resolve) => socket.once('data', (d: Buffer) => resolve(d.toString())));
      for (let i = 0; i < 3; i++) {
        // Reset right after connecting, before the greeting (the catcher is still setting up).
        const early = connect(catcher.port, '127.0.0.1');
        await new Promise<void>((resolve) => early.once('connect', () => resolve()));
        early.resetAndDestroy();
        const socket = connect(catcher.port, '127.0.0.1');
        await reply(socket);
        socket.write('EHLO dying.example\r\n');
        await reply(socket);
        socket.write('STARTTLS\r\n');
        expect(await reply(socket)).toMatch(/^220/);
        const secure = tlsConnect({ socket, rejectUnauthorized: false });
        await new Promise<void>((resolve) => secure.once('secureConnect', () => resolve()));
        // Mid-transaction: the envelope is given and the message is half written.
        for (const command of [
          'EHLO dying.example',
          'MAIL FROM:<a@example.com>',
          'RCPT TO:<b@example.com>',
          'DATA',
        ]) {
          secure.write(`${command}\r\n`);
          await reply(secure);
        }
        secure.write('Subject: cut off\r\n\r\nhalf a mes');
        await new Promise((r) => setTimeout(r, 50));
        socket.resetAndDestroy();
      }
      await new Promise((r) => setTimeout(r, 200));
      const mailer = createMailer({
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: catcher.port,
        MAIL_FROM_NAME: 'Test',
        MAIL_FROM_ADDRESS: 'test@aplt.localhost',
        SMTP_TLS_REJECT_UNAUTHORIZED: false,
        SMTP_REQUIRE_TLS: true,
      });
      try {
        await mailer.send({ to: 'after@example.com', subject: 'still here', text: 'code 123456' });
      } finally {
        mailer.close();
      }
      expect(lines.some((l) => l.startsWith('mail to after@example.com: still here | code 123456'))).toBe(
        true,
      );
      expect(readdirSync(dir).filter((f) => f.endsWith('.eml'))).toHaveLength(1);
      expect(lines.filter((l) => l.startsWith('mail: a sending connection failed')).length).toBeGreaterThan(
        0,
      );
    } finally {
      await catcher.close();
    }
  });
});
