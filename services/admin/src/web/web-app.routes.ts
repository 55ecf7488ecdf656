import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { packageDir } from '@aplt/config';
import { type App, notFound } from '@aplt/http';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { notBuiltPage } from './not-built-page';

/** Where `pnpm --filter @aplt/admin-web build` writes the panel. */
export const defaultWebDist = path.join(packageDir(import.meta.url), 'web', 'dist');

/** Vite puts every hashed file under assets/: its name changes whenever its content does. */
const ASSETS_DIR = 'assets';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The relative path inside dist a request names, or null when it is not a plain path down the
 * tree: dot segments (also encoded: the router has decoded `%2e%2e%2f` by now) and any other
 * segment starting with a dot (`.vite/manifest.json`), backslashes, empty segments, drive
 * letters. Null answers 404, whatever file the path would have reached.
 */
export function safeRelativePath(raw: string): string | null {
  if (raw === '') return '';
  const segments = raw.split('/');
  for (const s of segments) {
    if (s === '' || s.startsWith('.') || s.includes('\\') || s.includes(':')) return null;
  }
  return segments.join('/');
}

/**
 * The admin panel (services/admin/web, built by Vite with base `/app/`) under `/app`:
 * - `/app/assets/*`: hashed files, cached for a year as immutable; an unknown one is a 404 (an
 *   old tab asking for a replaced chunk must not get HTML back);
 * - another file that exists in dist (favicon): served, revalidated on every use;
 * - any other `/app` path: `index.html` with `no-store`, and the client router draws the page;
 * - no build: a 503 page that says how to build it, for every path.
 * Vite writes `.br` and `.gz` beside every compressible file; they are sent when the browser
 * accepts them.
 */
export async function webAppRoutes(app: App, opts: { distDir: string }): Promise<void> {
  const root = path.resolve(opts.distDir);
  await app.register(fastifyStatic, {
    root,
    serve: false,
    index: false,
    preCompressed: true,
    dotfiles: 'deny',
    // Cache headers are set per answer below.
    cacheControl: false,
  });

  const built = () => existsSync(path.join(root, 'index.html'));
  const notBuilt = (reply: FastifyReply) =>
    reply
      .code(503)
      .header('cache-control', 'no-store')
      .header('retry-after', '30')
      .type('text/html; charset=utf-8')
      .send(notBuiltPage());
  const sendIndex = (reply: FastifyReply) =>
    reply.header('cache-control', 'no-store').sendFile('index.html', { lastModified: false, etag: false });

  const isFile = (relative: string) => {
    const full = path.resolve(root, relative);
    if (!full.startsWith(root + path.sep)) return false;
    try {
      return statSync(full).isFile();
    } catch {
      return false;
    }
  };

  app.get('/app', async (_request, reply) => (built() ? sendIndex(reply) : notBuilt(reply)));

  app.get(
    '/app/*',
    { schema: { params: z.object({ '*': z.string().max(2048) }) } },
    async (request, reply) => {
      const relative = safeRelativePath(request.params['*']);
      if (relative === null) throw notFound('No such page or file');
      if (!built()) return notBuilt(reply);
      if (relative === '' || relative === 'index.html') return sendIndex(reply);
      if (relative.startsWith(`${ASSETS_DIR}/`)) {
        if (!isFile(relative)) throw notFound('No such file');
        return reply.header('cache-control', IMMUTABLE).sendFile(relative);
      }
      if (isFile(relative)) return reply.header('cache-control', 'no-cache').sendFile(relative);
      return sendIndex(reply);
    },
  );
}
