import { type AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  /** Whether the client upgraded with STARTTLS before sending. */
  secure: boolean;
  auth: { username: string; password: string } | null;
  raw: Buffer;
  parsed: ParsedMail;
}

export interface SmtpSink {
  port: number;
  messages: ReceivedMail[];
  waitFor(predicate: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback that offers STARTTLS (with smtp-server's built-in self-signed
 * certificate) and AUTH, and keeps every delivered message parsed by an independent MIME parser.
 * `port` brings a mail server back on the port an outage left (default: any free port).
 */
export async function startSmtpSink(opts: { port?: number } = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const authBySession = new Map<string, { username: string; password: string }>();
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: [],
    logger: false,
    onAuth(auth, session, cb) {
      authBySession.set(session.id, { username: auth.username ?? '', password: auth.password ?? '' });
      cb(null, { user: auth.username });
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            messages.push({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              secure: session.secure,
              auth: authBySession.get(session.id) ?? null,
              raw,
              parsed,
            });
            for (const w of waiters.splice(0)) w();
            cb();
          },
          (err: Error) => cb(err),
        );
      });
    },
  });
  // A client that dies mid-session (a killed service) is its own failure, not the test's.
  server.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', resolve);
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    messages,
    async waitFor(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = messages.find(predicate);
        if (hit) return hit;
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`No matching mail within ${timeoutMs} ms (${messages.length} received)`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
