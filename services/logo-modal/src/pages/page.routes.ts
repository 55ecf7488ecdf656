import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { packageDir } from '@aplt/config';
import { scriptJson, type App } from '@aplt/http';
import type { FastifyReply } from 'fastify';

const publicDir = pathToFileURL(`${packageDir(import.meta.url)}/public/`);

const types: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/**
 * The modal page (/modal/) and the demo webshop (/demo-shop/): static files plus, in the HTML,
 * the allow-list of parent origins the modal may post its messages to.
 */
export function pageRoutes(app: App, opts: { allowedOrigins: string[] }) {
  const frameAncestors = ["'self'", ...opts.allowedOrigins].join(' ');
  const config = scriptJson({ allowedOrigins: opts.allowedOrigins });

  async function serve(reply: FastifyReply, file: string, embeddable: boolean) {
    const ext = file.split('.').pop() as string;
    let body = await readFile(new URL(file, publicDir), 'utf8');
    if (ext === 'html')
      body = body.replace(
        '<!--MODAL_CONFIG-->',
        `<script id="modal-config" type="application/json">${config}</script>`,
      );
    reply
      .header('content-type', types[ext] ?? 'application/octet-stream')
      .header('cache-control', 'no-cache');
    if (ext === 'html') {
      reply.header(
        'content-security-policy',
        `default-src 'self'; img-src 'self' blob: data: http: https:; style-src 'self' 'unsafe-inline'; connect-src 'self' http: https:; frame-src http: https:; frame-ancestors ${embeddable ? frameAncestors : "'self'"}`,
      );
    }
    return reply.send(body);
  }

  const hidden = { schema: { hide: true } };
  app.get('/modal', hidden, async (request, reply) => {
    const q = request.url.indexOf('?');
    return reply.redirect(`/modal/${q >= 0 ? request.url.slice(q) : ''}`);
  });
  app.get('/modal/', hidden, async (_r, reply) => serve(reply, 'modal/index.html', true));
  app.get('/modal/modal.js', hidden, async (_r, reply) => serve(reply, 'modal/modal.js', true));
  app.get('/modal/modal.css', hidden, async (_r, reply) => serve(reply, 'modal/modal.css', true));
  app.get('/demo-shop', hidden, async (_r, reply) => reply.redirect('/demo-shop/'));
  app.get('/demo-shop/', hidden, async (_r, reply) => serve(reply, 'demo-shop/index.html', false));
  app.get('/demo-shop/demo-shop.js', hidden, async (_r, reply) =>
    serve(reply, 'demo-shop/demo-shop.js', false),
  );
  app.get('/', hidden, async (_r, reply) => reply.redirect('/demo-shop/'));
}
