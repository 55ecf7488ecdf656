// The proxied path with and without forward auth, through the local Caddy, in one run:
// - the same upstream route (a small Fastify app built by createApp, as every backend) behind
//   forward auth to our access service (its /api/validate: whitelisted client IP, and a session
//   cookie), behind forward auth to a trivial auth server answering 200, and without forward auth;
// - the upstream route straight, without the proxy (the floor under all of them).
// Goal of issue #17: ours >= 90 % of the same proxy with the trivial auth server. The session case
// is printed beside the trivial auth server answering the same request (with the same cookie) too.
// Every server runs in its own process, with logging as the start command runs it (LOG_LEVEL,
// default info; JSON written asynchronously straight into .run/bench/proxy-forward-auth-<role>.log, counted at
// the end and removed unless KEEP_BENCH_LOGS).
// The servers run compiled, as the start command runs the fleet: this file is bundled with the
// fleet's bundler (deploy/build/bundle.ts) into .run/bench/dist/ and each role starts from that
// bundle with plain node (BENCH_RUNTIME=tsx: from source through tsx, as before issue #17's build).
// The Caddyfile is the fleet's route shape (proxy/src/caddyfile.ts): strip the identity headers,
// forward_auth with copy_headers, reverse_proxy, both with keep-alive pools of 512.
// Answers other than 200 are counted by status and printed: Debian's Caddy 2.6.2 has been seen
// sending requests to the wrong upstream under load (the upstream answers 404 for any other path,
// the auth servers 421 for anything but /api/validate).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import {
  closeSync,
  createReadStream,
  mkdirSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createApp, createLogger, flushLogs } from '@aplt/http';
import autocannon from 'autocannon';
import { serviceMallocEnv } from '../deploy/fleet/malloc-env';

const role = process.argv[2];
const LOG_LEVEL = process.env.LOG_LEVEL ?? 'info';
const ROUTE = '/bench/item';
// Stress for Caddy's misrouting (see bench/README.md): the auth servers close a keep-alive
// connection after this many requests (0: never), so Caddy dials new ones all the time.
const REQUESTS_PER_SOCKET = Number(process.env.AUTH_REQUESTS_PER_SOCKET ?? 0);
// Extra lines for forward_auth's `transport http` block (a candidate workaround, e.g. `keepalive off`).
const AUTH_TRANSPORT = (process.env.CADDY_AUTH_TRANSPORT ?? '').split(';').filter((l) => l.trim());

/** A child's part: start its server, report on fd 3, stop on SIGTERM. */
async function serve(which: string): Promise<void> {
  let info: Record<string, unknown>;
  let stop: () => Promise<void>;
  if (which === 'upstream') {
    const app = await createApp({ name: 'upstream', logLevel: LOG_LEVEL, docs: false });
    const body = { id: 'item-1', name: 'Bench item', price: { amount: 1999, currency: 'EUR' } };
    app.get(ROUTE, async () => body);
    await app.listen({ port: 0, host: '127.0.0.1' });
    info = { port: (app.server.address() as AddressInfo).port };
    stop = async () => {
      await app.close();
      await flushLogs(app.log);
    };
  } else if (which === 'trivial') {
    // Answers like our access service's allow (200, the same headers for copy_headers), and
    // logs one line per decision with the same logger, so only the decision itself differs.
    const log = createLogger({ name: 'trivial-auth', level: LOG_LEVEL });
    let n = 0;
    const server = createServer((req, res) => {
      if (!req.url?.startsWith('/api/validate')) {
        res.writeHead(421, { 'content-length': '0' }).end();
        return;
      }
      const reqId = `t-${++n}`;
      log.info(
        { reqId, decision: 'allow', reason: 'trivial', host: req.headers['x-forwarded-host'] },
        'forward auth',
      );
      res
        .writeHead(200, {
          'x-auth-via': 'trivial',
          'x-auth-user': '',
          'x-auth-roles': '',
          'x-access-assertion': 'trivial',
          'x-request-id': reqId,
          'content-length': '0',
        })
        .end();
    });
    server.maxRequestsPerSocket = REQUESTS_PER_SOCKET;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    info = { port: (server.address() as AddressInfo).port };
    stop = async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await flushLogs(log);
    };
  } else {
    // Our access service on throw-away databases. Caddy reports the client as 127.0.0.1, which
    // only the `ip` instance whitelists (the default list has loopback); the session instance
    // whitelists only a documentation range, so it decides by the cookie.
    const { accessFixture } = await import('../services/access/bench/fixture');
    const fx = await accessFixture({
      env: {
        LOG_LEVEL,
        ACCESS_STATIC_WHITELIST: which === 'access-ip' ? '127.0.0.0/8' : '192.0.2.0/24',
      },
    });
    fx.app.server.maxRequestsPerSocket = REQUESTS_PER_SOCKET;
    info = { port: fx.port, session: fx.session };
    stop = async () => {
      await fx.cleanup();
      await flushLogs(fx.app.log);
    };
  }
  writeSync(3, `${JSON.stringify(info)}\n`);
  process.once('SIGTERM', () => void stop().then(() => process.exit(0)));
}

if (role) {
  await serve(role);
} else {
  await main();
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function main(): Promise<void> {
  const DURATION = Number(process.env.DURATION ?? 3);
  const ROUNDS = Number(process.env.ROUNDS ?? 8);
  const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
  const runDir = new URL('../.run/bench/', import.meta.url).pathname;
  mkdirSync(runDir, { recursive: true });

  const self = new URL(import.meta.url).pathname;
  let roleArgs = ['--import', 'tsx', self];
  if ((process.env.BENCH_RUNTIME ?? 'compiled') === 'compiled') {
    const { bundlePackage } = await import('../deploy/build/bundle');
    const outdir = `${runDir}dist`;
    await bundlePackage(new URL('.', import.meta.url).pathname, ['proxy-forward-auth.ts'], outdir);
    roleArgs = [`${outdir}/proxy-forward-auth.mjs`];
  }
  console.log(`servers run ${roleArgs.length === 1 ? 'compiled (bundle)' : 'from source through tsx'}`);

  const children: ChildProcess[] = [];
  const start = async (which: string) => {
    const fd = openSync(`${runDir}proxy-forward-auth-${which}.log`, 'w');
    const child = spawn(process.execPath, [...roleArgs, which], {
      env: { ...process.env, ...serviceMallocEnv, LOG_LEVEL },
      stdio: ['ignore', fd, 'inherit', 'pipe'],
    });
    closeSync(fd);
    children.push(child);
    const [line] = (await once(createInterface({ input: child.stdio[3] as Readable }), 'line')) as [string];
    return JSON.parse(line) as { port: number; session?: string };
  };
  let caddy: ChildProcess | undefined;
  try {
    const [upstream, accessIp, accessSession, trivial] = await Promise.all(
      ['upstream', 'access-ip', 'access-session', 'trivial'].map(start),
    );
    // One site per case, each on a port of its own: every request carries the tenant host
    // acme.localhost (our access service checks it), and only the site's directives differ.
    const ports = {
      ip: await freePort(),
      session: await freePort(),
      trivial: await freePort(),
      none: await freePort(),
    };
    const up = `127.0.0.1:${upstream!.port}`;
    const transport = ['\t\ttransport http {', '\t\t\tkeepalive_idle_conns_per_host 512', '\t\t}'];
    const authHeaders = 'X-Auth-Via X-Auth-User X-Auth-Roles X-Access-Assertion';
    const site = (port: number, auth: number | null) => [
      `http://:${port} {`,
      '\tbind 127.0.0.1',
      '\troute {',
      ...(auth === null
        ? []
        : [
            ...authHeaders.split(' ').map((h) => `\t\trequest_header -${h}`),
            `\t\tforward_auth 127.0.0.1:${auth} {`,
            '\t\t\turi /api/validate',
            `\t\t\tcopy_headers ${authHeaders}`,
            '\t\t\ttransport http {',
            '\t\t\t\tkeepalive_idle_conns_per_host 512',
            ...AUTH_TRANSPORT.map((l) => `\t\t\t\t${l.trim()}`),
            '\t\t\t}',
            '\t\t}',
          ]),
      `\t\treverse_proxy ${up} {`,
      ...transport.map((l) => `\t${l}`),
      '\t\t}',
      '\t}',
      '}',
    ];
    const caddyfile = [
      '{',
      '\tadmin off',
      '\tauto_https off',
      '}',
      ...site(ports.ip, accessIp!.port),
      ...site(ports.session, accessSession!.port),
      ...site(ports.trivial, trivial!.port),
      ...site(ports.none, null),
    ].join('\n');
    const caddyDir = `${runDir}proxy-forward-auth-caddy`;
    mkdirSync(caddyDir, { recursive: true });
    writeFileSync(`${caddyDir}/Caddyfile`, caddyfile);
    caddy = spawn(
      process.env.CADDY_BIN ?? 'caddy',
      ['run', '--config', `${caddyDir}/Caddyfile`, '--adapter', 'caddyfile'],
      {
        env: { ...process.env, HOME: caddyDir, XDG_DATA_HOME: caddyDir, XDG_CONFIG_HOME: caddyDir },
        stdio: ['ignore', 'ignore', 'ignore'],
      },
    );
    const proxy = (p: number) => `http://127.0.0.1:${p}${ROUTE}`;
    for (let i = 0; ; i++) {
      try {
        await fetch(proxy(ports.none));
        break;
      } catch {
        if (i > 200 || caddy.exitCode !== null) throw new Error('caddy did not start');
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    const host = { host: 'acme.localhost' };
    const withCookie = { ...host, cookie: `aplt_session=${accessSession!.session}` };
    // `same`: the trivial-auth case that sends exactly this request (the cookie travels to the
    // auth server and on to the upstream in both), so only the auth server's decision differs.
    const cases: Array<{ name: string; url: string; headers: Record<string, string>; same?: number }> = [
      { name: 'upstream route straight (no proxy)', url: `http://${up}${ROUTE}`, headers: host },
      { name: 'proxy, no forward auth', url: proxy(ports.none), headers: host },
      { name: 'proxy + trivial auth server (baseline)', url: proxy(ports.trivial), headers: host },
      { name: 'proxy + trivial auth, same cookie', url: proxy(ports.trivial), headers: withCookie },
      { name: 'proxy + our access, whitelisted IP', url: proxy(ports.ip), headers: host, same: 2 },
      { name: 'proxy + our access, session cookie', url: proxy(ports.session), headers: withCookie, same: 3 },
    ];
    for (const c of cases) {
      const res = await fetch(c.url, { headers: c.headers });
      const text = await res.text();
      if (res.status !== 200 || !text.includes('item-1'))
        throw new Error(
          `${c.name}: expected 200 from the upstream route, got ${res.status} ${text.slice(0, 200)}`,
        );
      await autocannon({ url: c.url, headers: c.headers, connections: CONNECTIONS, duration: 1 });
    }
    const results = cases.map(() => ({
      rps: [] as number[],
      p50: [] as number[],
      p99: [] as number[],
      total: 0,
    }));
    const statuses = cases.map(() => new Map<string, number>());
    for (let round = 0; round < ROUNDS; round++) {
      const order = [...cases.entries()];
      if (round % 2) order.reverse();
      for (const [i, c] of order) {
        const r = await autocannon({
          url: c.url,
          headers: c.headers,
          connections: CONNECTIONS,
          duration: DURATION,
        });
        const res = results[i]!;
        res.rps.push(r.requests.average);
        res.p50.push(r.latency.p50);
        res.p99.push(r.latency.p99);
        res.total += r.requests.total;
        const codes =
          (r as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {};
        for (const [code, { count }] of Object.entries(codes))
          if (code !== '200') statuses[i]!.set(code, (statuses[i]!.get(code) ?? 0) + count);
        if (r.errors) statuses[i]!.set('error', (statuses[i]!.get('error') ?? 0) + r.errors);
        if (r.timeouts) statuses[i]!.set('timeout', (statuses[i]!.get('timeout') ?? 0) + r.timeouts);
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    // The machine's throughput drifts by 10-20 % within seconds (every case, the floor too), so a
    // ratio of means over a run moves with when each case happened to run. Each round's own ratio
    // compares cases measured seconds apart; their median is the figure the goal is read from.
    const pairedRatio = (i: number, base: number) => {
      const ratios = results[i]!.rps.map((rps, round) => (rps / results[base]!.rps[round]!) * 100).sort(
        (a, b) => a - b,
      );
      const mid = ratios.length >> 1;
      const median = ratios.length % 2 ? ratios[mid]! : (ratios[mid - 1]! + ratios[mid]!) / 2;
      return `${median.toFixed(1)} % (rounds ${ratios[0]!.toFixed(0)}-${ratios.at(-1)!.toFixed(0)} %)`;
    };
    const baseline = mean(results[2]!.rps);
    const noAuth = mean(results[1]!.rps);
    for (const [i, c] of cases.entries()) {
      const r = results[i]!;
      const bad = [...statuses[i]!.entries()];
      console.log(
        `${c.name.padEnd(40)} ${mean(r.rps).toFixed(0).padStart(7)} req/s  p50 ${mean(r.p50).toFixed(1)} ms  p99 ${mean(r.p99).toFixed(1)} ms  ` +
          `${((mean(r.rps) / baseline) * 100).toFixed(1)} % of trivial auth, ${((mean(r.rps) / noAuth) * 100).toFixed(1)} % of no auth` +
          (c.same === undefined
            ? ''
            : `, ${((mean(r.rps) / mean(results[c.same]!.rps)) * 100).toFixed(1)} % of trivial auth with the same request`) +
          (bad.length
            ? `  NON-200: ${bad.map(([k, v]) => `${k} x${v}`).join(', ')} of ${r.total} (${((bad.reduce((a, [, v]) => a + v, 0) / r.total) * 100).toFixed(2)} %)`
            : ''),
      );
    }
    for (const [i, c] of cases.entries())
      if (c.same !== undefined)
        console.log(
          `${c.name.padEnd(40)} median of the rounds' own ratios: ${pairedRatio(i, 2)} of trivial auth, ` +
            `${pairedRatio(i, c.same)} of trivial auth with the same request`,
        );
    console.log(
      `target: ours >= 90 % of the trivial auth server, read from the medians (${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${DURATION} s, ` +
        `LOG_LEVEL=${LOG_LEVEL}, auth servers' requests per socket ${REQUESTS_PER_SOCKET || 'unlimited'}, ` +
        `forward_auth transport extra: ${AUTH_TRANSPORT.join('; ') || 'none'}, logs in ${runDir}proxy-forward-auth-*.log, Caddy ${caddyfile.length} bytes of config in ${caddyDir})`,
    );
  } finally {
    if (caddy && caddy.exitCode === null) {
      caddy.kill('SIGTERM');
      await once(caddy, 'exit');
    }
    await Promise.all(
      children.map(async (c) => {
        if (c.exitCode !== null) return;
        c.kill('SIGTERM');
        await once(c, 'exit');
      }),
    );
  }
  // What the logs say: the decisions each auth server logged, by reason (the session instance
  // must have decided by the cookie, not by the whitelist), and the upstream's request lines.
  for (const which of ['access-ip', 'access-session', 'trivial', 'upstream']) {
    const file = `${runDir}proxy-forward-auth-${which}.log`;
    const counts = new Map<string, number>();
    for await (const line of createInterface({ input: createReadStream(file) })) {
      if (!line) continue;
      const l = JSON.parse(line) as { msg?: string; decision?: string; reason?: string };
      const key = l.decision ? `${l.decision}/${l.reason}` : (l.msg ?? '?');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    console.log(
      `log ${which.padEnd(15)} ${[...counts].map(([k, v]) => `${k} x${v}`).join(', ')}  (${(statSync(file).size / 1e6).toFixed(1)} MB)`,
    );
    if (!process.env.KEEP_BENCH_LOGS) rmSync(file, { force: true });
  }
}
