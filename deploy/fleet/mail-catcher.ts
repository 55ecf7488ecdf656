import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface MailCatcher {
  port: number;
  close(): Promise<void>;
}

/**
 * The local fleet's outgoing mail server: it speaks SMTP with STARTTLS (a self-signed
 * certificate) like the real relay, keeps every message as an .eml file and logs who it was for,
 * its subject and any link or code in it, so password resets and second factors work in the demo.
 */
export async function startMailCatcher(dir: string, log: (line: string) => void): Promise<MailCatcher> {
  mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    logger: false,
    onAuth: (_auth, _session, cb) => cb(null, { user: 'fleet' }),
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${++count}.eml`);
        writeFileSync(file, raw);
        simpleParser(raw).then(
          (mail) => {
            const text = mail.text ?? '';
            const link = /https?:\/\/\S+/.exec(text)?.[0];
            const code = /\b\d{6}\b/.exec(text)?.[0];
            const to = session.envelope.rcptTo.map((r) => r.address).join(', ');
            log(
              `mail to ${to}: ${mail.subject ?? '(no subject)'}${code ? ` | code ${code}` : ''}${link ? ` | ${link}` : ''}`,
            );
            cb();
          },
          () => cb(),
        );
      });
    },
  });
  // A sender that dies mid-session (a service killed while it hands over a mail) resets its
  // connection; smtp-server reports that as an 'error' event, which unheard would throw in the
  // start command's own process and end the whole fleet.
  server.on('error', (err: Error) => log(`mail: a sending connection failed (${err.message})`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
