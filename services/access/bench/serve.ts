// The servers of bench/access-validate.ts, in a process of their own as in production (the proxy
// and the access service do not share an event loop with the load generator). Writes one JSON
// line with the URLs and credentials to fd 3, and cleans up on SIGINT/SIGTERM.
//
// Logging as the start command runs it: LOG_LEVEL (default info), JSON written asynchronously to
// stdout, which the benchmark points at a file (as the start command does per service).
//
// Besides the access app itself (which signs the identity assertion of every allow) it serves the
// forward-auth handler twice more on plain Node servers, built the same way and differing only in
// the signer: with it, and without it (no x-access-assertion). Their ratio is what the assertion
// costs.
import { writeSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AssertionSigner } from '@aplt/http';
import { ForwardAssertions } from '../src/forward-auth/assertions';
import { HostTenants } from '../src/forward-auth/host-tenants';
import { IdentityCache } from '../src/forward-auth/identity-cache';
import { DecisionMetrics } from '../src/forward-auth/metrics';
import { validateHandler } from '../src/forward-auth/validate.handler';
import { Whitelist } from '../src/forward-auth/whitelist';
import { accessFixture, bareServer } from './fixture';

const fx = await accessFixture({
  env: { ACCESS_STATIC_WHITELIST: '10.0.0.0/8', LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' },
});
const bare = await bareServer();
const bareLogged = await bareServer({ logged: true });

function buildHandler(signed: boolean) {
  const { config, db, registry } = fx;
  const ttl = config.ACCESS_CACHE_SECONDS * 1000;
  return validateHandler({
    config,
    whitelist: new Whitelist(db, config.ACCESS_STATIC_WHITELIST, ttl),
    identities: new IdentityCache(db, ttl, config.ACCESS_SESSION_IDLE_MINUTES),
    metrics: new DecisionMetrics(),
    hosts: new HostTenants(registry, ttl, fx.app.log),
    assertions: signed
      ? new ForwardAssertions(new AssertionSigner(config.ACCESS_ASSERTION_PRIVATE_KEY))
      : null,
    log: fx.app.log,
    redeemTicket: async () => null,
  });
}

async function handlerServer(signed: boolean): Promise<{ server: Server; url: string }> {
  const server = createServer(buildHandler(signed));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * The handler's own CPU time per allow, without HTTP: called in-process with a request and a
 * response that only take what it writes. Blocks of the two handlers alternate; the median block
 * counts. Loaded machines make HTTP figures noisy; this one says what the signature path costs.
 */
async function cpuPerCall(): Promise<Record<string, { signedNs: number; unsignedNs: number }>> {
  const sink = { writeHead() {}, write() {}, end() {}, socket: null } as unknown as ServerResponse;
  const paths = {
    'whitelisted IP': { 'x-forwarded-for': '10.1.2.3' },
    'session cookie': { 'x-forwarded-for': '192.0.2.50', cookie: `aplt_session=${fx.session}` },
    'device token': { 'x-forwarded-for': '192.0.2.50', cookie: `aplt_device=${fx.device}` },
  };
  const out: Record<string, { signedNs: number; unsignedNs: number }> = {};
  for (const [name, extra] of Object.entries(paths)) {
    const req = {
      method: 'GET',
      socket: { remoteAddress: '127.0.0.1' },
      headers: {
        'x-forwarded-method': 'GET',
        'x-forwarded-host': 'acme.localhost',
        'x-forwarded-uri': '/app',
        ...extra,
      },
    } as unknown as IncomingMessage;
    const handlers = { signed: buildHandler(true), unsigned: buildHandler(false) };
    // Fill the caches (the first call of each loads from the database).
    for (const h of Object.values(handlers)) {
      h(req, sink);
      await new Promise((r) => setTimeout(r, 200));
    }
    const block = (h: (q: IncomingMessage, s: ServerResponse) => void, n: number) => {
      const t = process.hrtime.bigint();
      for (let i = 0; i < n; i++) h(req, sink);
      return Number(process.hrtime.bigint() - t) / n;
    };
    for (const h of Object.values(handlers)) block(h, 20_000);
    const times = { signed: [] as number[], unsigned: [] as number[] };
    for (let b = 0; b < 15; b++)
      for (const key of b % 2 ? (['signed', 'unsigned'] as const) : (['unsigned', 'signed'] as const))
        times[key].push(block(handlers[key], 20_000));
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    out[name] = { signedNs: median(times.signed), unsignedNs: median(times.unsigned) };
  }
  return out;
}

const cpu = await cpuPerCall();
const signed = await handlerServer(true);
const unsigned = await handlerServer(false);
writeSync(
  3,
  JSON.stringify({
    url: fx.url,
    bareUrl: bare.url,
    bareLoggedUrl: bareLogged.url,
    signedUrl: signed.url,
    unsignedUrl: unsigned.url,
    session: fx.session,
    device: fx.device,
    cpu,
  }) + '\n',
);
const stop = async () => {
  for (const s of [signed.server, unsigned.server]) s.closeAllConnections();
  await Promise.all([signed.server, unsigned.server].map((s) => new Promise((r) => s.close(r))));
  await bare.close();
  await bareLogged.close();
  await fx.cleanup();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
