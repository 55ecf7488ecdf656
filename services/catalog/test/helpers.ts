import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ApltDatabase, type Kysely, sql } from '@aplt/db';
import { signActorToken, tenantJwtSecret } from '@aplt/http';
import { testSecrets } from '@aplt/testing';

export const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** An admin token of `tenantId`, signed with this test process's JWT_SECRET (testSecrets). */
export async function adminToken(tenantId: string): Promise<string> {
  return signActorToken(
    tenantJwtSecret(testSecrets().JWT_SECRET, tenantId),
    {
      actor_id: 'user_x',
      actor_type: 'user',
      auth_identity_id: 'authid_x',
      app_metadata: { user_id: 'user_x' },
    },
    3600,
  );
}

/** A real HTTP server on loopback that serves the fixture files, like a supplier's feed host. */
export async function startFeedServer(): Promise<{
  url: string;
  requests: string[];
  close(): Promise<void>;
}> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = join(fixtures, decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/'));
    requests.push(req.url ?? '/');
    if (!path.startsWith(fixtures)) {
      res.writeHead(400).end();
      return;
    }
    stat(path).then(
      (s) => {
        res.writeHead(200, { 'content-length': s.size, 'content-type': 'application/octet-stream' });
        createReadStream(path).pipe(res);
      },
      () => res.writeHead(404).end('not found'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const feedFiles: Record<string, { format: string; ext: string }> = {
  '01': { format: 'json', ext: 'json' },
  '02': { format: 'tsv', ext: 'tsv' },
  '03': { format: 'xml', ext: 'xml' },
  '06': { format: 'strings_json', ext: 'json' },
};

/** Suppliers whose feeds live under `base` (a URL or a directory), plus a small category tree. */
export async function seedSuppliersAndCategories(
  db: Kysely<ApltDatabase>,
  base: (code: string) => string,
): Promise<void> {
  for (const [code, f] of Object.entries(feedFiles)) {
    const feeds = Object.fromEntries(
      ['products', 'stock', 'prices', 'printdata'].map((k) => [k, `${base(code)}/${k}.${f.ext}`]),
    );
    await sql`INSERT INTO aplt_suppliers (code, name, feed_format, settings)
      VALUES (${code}, ${`Supplier ${code}`}, ${f.format}, ${JSON.stringify({ feeds })}::jsonb)
      ON CONFLICT (code) DO UPDATE SET settings = EXCLUDED.settings, feed_format = EXCLUDED.feed_format`.execute(
      db,
    );
  }
  await sql`INSERT INTO aplt_categories (code, slug, name_nl, name_en, name_de, sort_order) VALUES
    ('writing', 'schrijfwaren', 'Schrijfwaren', 'Writing', 'Schreibwaren', 1),
    ('drinkware', 'drinkwaren', 'Drinkwaren', 'Drinkware', 'Trinkgeschirr', 2)
    ON CONFLICT (code) DO NOTHING`.execute(db);
  await sql`INSERT INTO aplt_categories (code, slug, name_nl, name_en, name_de, parent_id)
    SELECT 'pens', 'pennen', 'Pennen', 'Pens', 'Kugelschreiber', id FROM aplt_categories WHERE code = 'writing'
    ON CONFLICT (code) DO NOTHING`.execute(db);
}

/** Polls until `check` returns a value (a queued job finishing); fails after `tries`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  what: string,
  tries = 300,
): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
}
