// The storefront's production server (what the start command, compose and `pnpm start` run instead
// of `next start`): Next's own request handler, created as Next's custom-server docs show, behind
// an in-memory page cache for the anonymous catalog pages. Plain Node, no build step of its own.
//
// Why: a server-rendered page costs Next an RSC render plus an HTML render per request, and even a
// Next route handler that renders nothing reaches about a fifth of the store API's requests/s
// through the proxy (bench/README.md). Issue #15 asks for 60 %, so a warm page must not reach
// Next's render path at all. What is cached, for whom, and why is in docs/decisions.md and
// apps/storefront/README.md ("Page cache"); the rules are tested in test/page-cache.test.ts.
//
//   node server.mjs [--hostname 127.0.0.1] [--port 4110]      (PORT, HOST as fallbacks)
import { Buffer } from 'node:buffer';
import { realpathSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { clearInterval, setInterval, setTimeout } from 'node:timers';
import { URL, fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';

/** The shop's catalog pages: `/<lang>`, `/<lang>/categories/<slug>`, `/<lang>/products/<sku>`. */
const CATALOG_PATH = /^\/[a-z]{2}(?:\/(?:categories|products)\/[^/]+)?$/;
/** Cookies whose holder sees personal parts (account, cart) in the page header. */
const PERSONAL_COOKIE = /(?:^|;)\s*_commerce_[a-z_]*=/i;
/** Requests for Next's router (RSC payloads, prefetches, server actions) answer something else. */
const ROUTER_HEADERS = [
  'rsc',
  'next-router-state-tree',
  'next-router-prefetch',
  'next-router-segment-prefetch',
  'next-action',
  'next-url',
];
const NEXT_INTERNAL_HEADER = /^(?:x-middleware-|x-invoke-|x-nextjs-|x-matched-path$|x-now-route-matches$)/;
/** Response headers that belong to one response, not to the page. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'date',
  'set-cookie',
  'x-page-cache',
]);
const GATEKEEPER_REGISTRY = Symbol.for('aplt.storefront.gatekeeper-approvals');

/**
 * The page cache's settings, read once at start-up; a bad value stops the server with a message
 * that names the variable.
 */
export function pageCacheSettings(env = process.env) {
  const int = (name, fallback, max) => {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0 || value > max)
      throw new Error(`${name} must be a whole number from 0 to ${max}, not ${JSON.stringify(raw)}`);
    return value;
  };
  return {
    /** How long a stored page is served as fresh; 0 turns the page cache off. */
    seconds: int('STOREFRONT_PAGE_CACHE_SECONDS', 10, 3600),
    /** At most this many pages (least recently used out first) ... */
    maxEntries: int('STOREFRONT_PAGE_CACHE_MAX_ENTRIES', 1000, 1_000_000),
    /** ... and at most this many bytes of HTML (a page and its gzip copy both count). */
    maxBytes: int('STOREFRONT_PAGE_CACHE_MAX_BYTES', 64 * 1024 * 1024, 2 ** 40),
    /** With the gatekeeper on, a cached page goes only to a visitor it admitted a moment ago. */
    gatekeeper: env[['NEXT_PUBLIC', 'GATEKEEPER_ENABLED'].join('_')]?.trim() === 'true',
  };
}

/** The gatekeeper's registry (src/lib/data/gatekeeper.ts, loaded by src/instrumentation.ts). */
const gatekeeperRegistry = () => globalThis[GATEKEEPER_REGISTRY];
const headerOf = (req) => (name) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/** Set on a request withGatekeeper() admitted, so the page cache does not ask again. */
const ADMITTED = Symbol('admitted');

/** Whether the gatekeeper's approval cache admits this visitor now (never when it is not there). */
function gatekeeperAdmits(req) {
  return req[ADMITTED] === true || (gatekeeperRegistry()?.admits(headerOf(req)) ?? false);
}

/** The shop's pages behind the gatekeeper: everything under /<lang> (the `[lang]/(main)` layout). */
const SHOP_PAGE = /^\/([a-z]{2})(?:\/|$)/;

/**
 * The gatekeeper's decision before Next: a visitor it has not admitted (pending, rejected, unknown)
 * gets the redirect to /toegang from here. Next's layout redirects too, but Next renders the page
 * beside it, so the page's content went out with the redirect: in a 307's body, and in full in
 * the answer to an RSC request (Next's router). A visitor whose approval is not in the cache is
 * checked here (the same check and cache the layout uses); when the check itself fails (no
 * assertion, gatekeeper down) Next decides, as before.
 */
export function withGatekeeper(handle, settings, registry = gatekeeperRegistry) {
  if (!settings.gatekeeper) return handle;
  return async (req, res) => {
    const match = SHOP_PAGE.exec(new URL(req.url ?? '/', 'http://storefront.invalid').pathname);
    const gate = registry();
    if (!match || !gate) return handle(req, res);
    const header = headerOf(req);
    if (gate.admits(header)) req[ADMITTED] = true;
    else {
      let access;
      try {
        access = await gate.check(header);
      } catch {
        return handle(req, res);
      }
      if (access.has_access) req[ADMITTED] = true;
      else {
        const lang = ['nl', 'en', 'de'].includes(match[1]) ? match[1] : 'nl';
        res.statusCode = req.method === 'GET' || req.method === 'HEAD' ? 307 : 303;
        res.setHeader('location', `/toegang?lang=${lang}`);
        res.setHeader('cache-control', 'private, no-cache, no-store, max-age=0, must-revalidate');
        res.setHeader('x-page-cache', 'BYPASS');
        res.end();
        return;
      }
    }
    return handle(req, res);
  };
}

/**
 * Why a request must go to Next without the cache, or undefined when the cache may answer it.
 * Only a GET or HEAD of a catalog page from a visitor without a session or cart cookie.
 */
export function bypassReason(req, url) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return 'method';
  if (!CATALOG_PATH.test(url.pathname)) return 'path';
  if (url.searchParams.has('_rsc') || ROUTER_HEADERS.some((name) => req.headers[name] !== undefined))
    return 'router';
  // Next's internal headers (middleware, invoke, data requests) never come from a browser.
  if (Object.keys(req.headers).some((name) => NEXT_INTERNAL_HEADER.test(name))) return 'internal';
  if (req.headers.authorization !== undefined) return 'authorization';
  if (PERSONAL_COOKIE.test(req.headers.cookie ?? '')) return 'cookie';
  return undefined;
}

/**
 * Wraps a request handler (Next's) with the page cache. A stored page is served fresh for
 * `seconds`; for as long again it is served stale to everybody else while one request renders it
 * anew (so a hot page never sends a crowd to Next at once). Only a 200 HTML answer without a
 * Set-Cookie is stored; what a request may get is decided by bypassReason() and the gatekeeper.
 */
export function withPageCache(handle, settings, admits = gatekeeperAdmits) {
  const ttl = settings.seconds * 1000;
  if (ttl === 0) return { handle, cache: undefined };
  const cache = new LRUCache({
    max: Math.max(1, settings.maxEntries),
    maxSize: Math.max(1, settings.maxBytes),
    maxEntrySize: Math.max(1, Math.floor(settings.maxBytes / 4)),
    sizeCalculation: (entry) => entry.body.length + entry.gzip.length + 512,
    // Kept past its freshness for the stale window; lru-cache drops it after both.
    ttl: 2 * ttl,
  });

  // Everything of the request a cacheable page depends on: the shop host (the tenant), the scheme,
  // the path and query. Cookies, router headers and the visitor's access are decided before.
  const keyOf = (req, url) =>
    ['x-forwarded-proto', 'x-forwarded-host', 'host']
      .map((name) => String(req.headers[name] ?? '').toLowerCase())
      .concat(url.pathname + url.search)
      .join(' ');

  const serve = (req, res, entry, state) => {
    res.statusCode = entry.status;
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    res.setHeader('x-page-cache', state);
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (gzip) res.setHeader('content-encoding', 'gzip');
    const body = gzip ? entry.gzip : entry.body;
    res.setHeader('content-length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  /** Passes a request to Next and stores its answer when it may be shared. */
  const render = (req, res, key, onDone) => {
    // Identity from Next, so one stored copy serves every client; compressed here on a hit.
    delete req.headers['accept-encoding'];
    res.setHeader('x-page-cache', 'MISS');
    const chunks = [];
    let size = 0;
    let tooBig = false;
    const written = new Map();
    const collect = (chunk, encoding) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function' || tooBig) return;
      const buf = Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8');
      size += buf.length;
      if (size > settings.maxBytes / 4) tooBig = true;
      else chunks.push(buf);
    };
    const { write, end, writeHead } = res;
    res.writeHead = function (status, ...rest) {
      const headers = rest.find((arg) => typeof arg === 'object' && arg !== null);
      if (Array.isArray(headers))
        for (let i = 0; i + 1 < headers.length; i += 2)
          written.set(String(headers[i]).toLowerCase(), headers[i + 1]);
      else if (headers)
        for (const [name, value] of Object.entries(headers)) written.set(name.toLowerCase(), value);
      return writeHead.call(this, status, ...rest);
    };
    res.write = function (chunk, encoding, cb) {
      collect(chunk, encoding);
      return write.call(this, chunk, encoding, cb);
    };
    res.end = function (chunk, encoding, cb) {
      collect(chunk, encoding);
      return end.call(this, chunk, encoding, cb);
    };
    let stored = false;
    res.once('finish', () => {
      const headers = new Map(Object.entries(res.getHeaders()));
      for (const [name, value] of written) headers.set(name, value);
      const type = String(headers.get('content-type') ?? '');
      if (
        req.method === 'GET' &&
        res.statusCode === 200 &&
        !tooBig &&
        type.startsWith('text/html') &&
        headers.get('set-cookie') === undefined &&
        (headers.get('content-encoding') ?? 'identity') === 'identity'
      ) {
        for (const name of HOP_HEADERS) headers.delete(name);
        if (!/\baccept-encoding\b/i.test(String(headers.get('vary') ?? '')))
          headers.set('vary', [headers.get('vary'), 'Accept-Encoding'].filter(Boolean).join(', '));
        const body = Buffer.concat(chunks);
        cache.set(key, {
          status: 200,
          headers: [...headers],
          body,
          gzip: gzipSync(body),
          storedAt: Date.now(),
        });
        stored = true;
      }
    });
    res.once('close', () => onDone?.(stored));
    return handle(req, res);
  };

  const cached = (req, res) => {
    const url = new URL(req.url ?? '/', 'http://storefront.invalid');
    // With the gatekeeper on, a visitor that is pending, rejected, unknown, or whose approval
    // lapsed goes to Next, whose layout asks the gatekeeper and redirects or renders.
    if (bypassReason(req, url) !== undefined || (settings.gatekeeper && !admits(req))) {
      res.setHeader('x-page-cache', 'BYPASS');
      return handle(req, res);
    }
    const key = keyOf(req, url);
    const entry = cache.get(key);
    const now = Date.now();
    if (entry && now - entry.storedAt < ttl) return serve(req, res, entry, 'HIT');
    if (req.method === 'HEAD') {
      if (entry) return serve(req, res, entry, 'STALE');
      res.setHeader('x-page-cache', 'BYPASS');
      return handle(req, res);
    }
    if (entry) {
      // Stale: one request renders it anew; the others keep the stale copy meanwhile.
      if (entry.refreshing && now - entry.refreshing < ttl) return serve(req, res, entry, 'STALE');
      entry.refreshing = now;
      return render(req, res, key, (stored) => {
        if (!stored) entry.refreshing = 0;
      });
    }
    return render(req, res, key);
  };
  return { handle: cached, cache };
}

/**
 * A redirect goes out without its body. Next streams a page while its layout decides: when the
 * gatekeeper's redirect to /toegang comes, the page's content (products, prices) has already been
 * rendered into the response, and `next start` sends it as the 307's body to a visitor the
 * gatekeeper refused. No browser shows a document redirect's body, so none is sent. Requests of
 * Next's router keep theirs: a server action's 303 carries the next page's RSC payload.
 */
export function withoutRedirectBodies(handle) {
  return (req, res) => {
    if (
      (req.method !== 'GET' && req.method !== 'HEAD') ||
      ROUTER_HEADERS.some((name) => req.headers[name] !== undefined) ||
      /[?&]_rsc=/.test(req.url ?? '')
    )
      return handle(req, res);
    const { write, end } = res;
    const dropping = () => {
      if (res.statusCode < 300 || res.statusCode >= 400) return false;
      if (!res.headersSent) res.removeHeader('content-length');
      return true;
    };
    res.write = function (chunk, encoding, cb) {
      if (!dropping()) return write.call(this, chunk, encoding, cb);
      const done = typeof encoding === 'function' ? encoding : cb;
      if (done) process.nextTick(done);
      return true;
    };
    res.end = function (chunk, encoding, cb) {
      if (!dropping()) return end.call(this, chunk, encoding, cb);
      const done = [chunk, encoding, cb].find((arg) => typeof arg === 'function');
      return end.call(this, done);
    };
    return handle(req, res);
  };
}

/** One JSON line per event, as the fleet's services write (pino's fields). */
function logger(level) {
  const levels = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: 100 };
  const min = levels[level] ?? levels.info;
  const line = (n) => (msg, extra) => {
    if (n >= min)
      (n >= levels.warn ? process.stderr : process.stdout).write(
        `${JSON.stringify({ level: n, time: Date.now(), name: 'storefront', msg, ...extra })}\n`,
      );
  };
  return {
    debug: line(levels.debug),
    info: line(levels.info),
    error: line(levels.error),
    enabled: (l) => levels[l] >= min,
  };
}

function argument(name) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

async function main() {
  const log = logger(process.env.LOG_LEVEL ?? 'info');
  let settings;
  try {
    settings = pageCacheSettings();
  } catch (err) {
    log.error(err.message);
    process.exit(1);
  }
  // Before Next and React load: they pick their production builds from it, as `next start` does.
  process.env.NODE_ENV = 'production';
  const hostname = argument('hostname') ?? process.env.HOST ?? '0.0.0.0';
  const port = Number(argument('port') ?? process.env.PORT ?? 3000);
  const { default: next } = await import('next');
  const dir = dirname(fileURLToPath(import.meta.url));
  const server = createServer();
  const app = next({ dev: false, dir, hostname, port, httpServer: server });
  await app.prepare();
  const nextHandle = app.getRequestHandler();
  const { handle: cached } = withPageCache(
    withoutRedirectBodies((req, res) => nextHandle(req, res)),
    settings,
  );
  const handle = withGatekeeper(cached, settings);
  const debug = log.enabled('debug');
  server.on('request', (req, res) => {
    const started = debug ? performance.now() : 0;
    if (debug)
      res.once('finish', () =>
        log.debug('request', {
          method: req.method,
          host: req.headers['x-forwarded-host'] ?? req.headers.host,
          url: req.url,
          status: res.statusCode,
          cache: res.getHeader('x-page-cache'),
          ms: Math.round(performance.now() - started),
        }),
      );
    Promise.resolve(handle(req, res)).catch((err) => {
      log.error('request failed', { url: req.url, err: String(err?.stack ?? err) });
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end();
      } else res.destroy();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, resolve);
  });
  log.info(`listening on http://${hostname}:${port}`, {
    pageCache: settings.seconds
      ? { seconds: settings.seconds, maxEntries: settings.maxEntries, maxBytes: settings.maxBytes }
      : 'off',
    gatekeeper: settings.gatekeeper,
  });
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    const force = setTimeout(() => process.exit(0), 10_000);
    force.unref();
    server.close(() => {
      Promise.resolve(app.close?.())
        .catch(() => {})
        .finally(() => process.exit(0));
    });
    server.closeIdleConnections();
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  // Started by the fleet runner: stop with it when it is gone, as the services do
  // (stopWithSupervisor in @aplt/http).
  const supervisor = Number(process.env.FLEET_SUPERVISOR_PID ?? 0);
  if (supervisor > 0) {
    const watch = setInterval(() => {
      if (process.ppid !== supervisor) {
        clearInterval(watch);
        shutdown();
      }
    }, 1_000);
    watch.unref();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) await main();
