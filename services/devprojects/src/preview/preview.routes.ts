import type { ApltDatabase } from '@aplt/db';
import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import type { TenantDatabases, TenantRecord, TenantRegistry } from '@aplt/db';
import { ASSERTION_HEADER, type App, badRequest, HttpError, notFound, unauthorized } from '@aplt/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as repo from '../projects/project.repository';
import type { PreviewStore } from '../rebuild/previews';

/** `<code>.preview.<tenant host>`: the code is one DNS label (project codes are `DP-0001`, ...). */
const PREVIEW_HOST = /^([a-z0-9][a-z0-9-]{0,62})\.preview\.([a-z0-9][a-z0-9.-]*)$/;

/** Where every request on a preview host is routed (see previewRewrite). */
export const PREVIEW_ROUTE = '/-/preview';

/**
 * Fastify's `rewriteUrl` of the service: a request on a preview host goes to the preview route,
 * whatever its path, so nothing else of the service (health, docs, admin routes) answers there
 * and no path of a preview is shadowed by one of the service's own. Other hosts keep their URL.
 */
export function previewRewrite(req: { url?: string; headers: { host?: string } }): string {
  const url = req.url ?? '/';
  const host = (req.headers.host ?? '').toLowerCase();
  // The path stays out of the router (request.originalUrl keeps it), so a malformed escape is
  // the preview route's 400 in the fleet's error body, not the router's.
  return /^[a-z0-9][a-z0-9-]*\.preview\./.test(host) ? PREVIEW_ROUTE : url;
}

/** The preview address of a project on a tenant's host, through the public proxy. */
export function previewUrl(tenant: TenantRecord, code: string, publicProxyUrl: string): string {
  const proxy = new URL(publicProxyUrl);
  return `${proxy.protocol}//${code.toLowerCase()}.preview.${tenant.hosts[0] ?? tenant.id}${proxy.port ? `:${proxy.port}` : ''}/`;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
  '.webmanifest': 'application/manifest+json',
};

/**
 * Decoded path segments of a request URL, or an error: each segment is percent-decoded once;
 * `.`/`..`, a decoded `/` or `\`, NUL and malformed escapes are refused (400), so the path can
 * only name something below the preview's root. Empty segments (`//`) are ignored.
 */
function segmentsOf(rawPath: string): string[] {
  const segments: string[] = [];
  for (const raw of rawPath.split('/')) {
    if (!raw) continue;
    let s: string;
    try {
      s = decodeURIComponent(raw);
    } catch {
      throw badRequest('Malformed percent-encoding in the path');
    }
    if (s === '.' || s === '..' || /[/\\\0]/.test(s) || s.length > 255)
      throw badRequest('Path segment not allowed', { segment: raw.slice(0, 100) });
    segments.push(s);
  }
  if (segments.length > 64) throw badRequest('Path too deep');
  return segments;
}

/**
 * Serves each project's live preview as static files on `<code>.preview.<tenant host>` (the
 * proxy's `preview` host kind, behind forward auth). The host carries no registered tenant, so
 * the route is `tenant: false` and checks the access service's assertion itself, for this very
 * host, like the trust plugin does for tenant routes. The tenant comes from the host's tail
 * (a registered tenant host) and the code must be one of that tenant's projects: another
 * tenant's code, an unknown one, or a project without a successful build are 404.
 */
export function previewRoutes(
  app: App,
  deps: { registry: TenantRegistry; databases: TenantDatabases; previews: PreviewStore },
) {
  const verifier = app.assertionVerifier;
  if (!verifier) throw new Error('The preview routes need the trust plugin (assertion verifier)');
  const preview = async (request: FastifyRequest, reply: FastifyReply) => {
    const hostname = request.hostname.toLowerCase().replace(/\.$/, '');
    if (!PREVIEW_HOST.test(hostname)) throw notFound(`Route ${request.method} ${request.url} not found`);
    const token = request.headers[ASSERTION_HEADER];
    const claims = typeof token === 'string' && token ? await verifier.verify(token, hostname) : undefined;
    // A public shop visitor's pass is for the shop host only; it never reaches a preview.
    if (!claims || claims.reason === 'shop')
      throw unauthorized('This request did not pass the access service');
    const [, label = '', tenantHost = ''] = PREVIEW_HOST.exec(hostname) ?? [];
    const tenant = await deps.registry.byHost(tenantHost);
    if (!tenant) throw notFound('Unknown preview host', { host: hostname });
    // The URL as the client sent it, before previewRewrite.
    const rawUrl = request.originalUrl;
    const q = rawUrl.indexOf('?');
    const rawPath = q >= 0 ? rawUrl.slice(0, q) : rawUrl;
    const segments = segmentsOf(rawPath);
    if (request.method !== 'GET' && request.method !== 'HEAD')
      throw new HttpError(
        405,
        'not_allowed',
        'A preview is read only (GET, HEAD)',
        {},
        { allow: 'GET, HEAD' },
      );
    const code = label.toUpperCase();
    const project = await repo.findProject(deps.databases.aplt<ApltDatabase>(tenant), { code });
    if (!project || project.project_code !== code) throw notFound('No such preview', { host: hostname });
    const hit = await deps.previews.resolve(tenant.id, code, segments, rawPath.endsWith('/'));
    if (!hit) throw notFound('Not found in this preview', { path: rawPath.slice(0, 200) });
    if (hit.kind === 'redirect') {
      // Relative links of an index.html resolve against the directory, so it ends in a slash.
      // Built from the checked segments (never the raw path: `//host` would leave the site).
      const path = `/${segments.map(encodeURIComponent).join('/')}/`;
      return reply.redirect(`${path}${q >= 0 ? rawUrl.slice(q) : ''}`, 301);
    }
    const type = contentTypes[extname(hit.path).toLowerCase()] ?? 'application/octet-stream';
    void reply
      .header('content-type', type)
      .header('content-length', hit.size)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-cache')
      // A preview is someone's work in progress: never indexed, never framed elsewhere.
      .header('x-robots-tag', 'noindex')
      .header('x-frame-options', 'SAMEORIGIN');
    if (request.method === 'HEAD') return reply.send();
    return reply.send(createReadStream(hit.path));
  };
  // Any method: a preview is static, so anything but GET/HEAD is 405 after the same checks.
  const route = { config: { tenant: false } };
  app.all(PREVIEW_ROUTE, route, preview);
}
