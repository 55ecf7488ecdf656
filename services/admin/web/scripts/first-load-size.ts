/**
 * JavaScript a browser downloads for the first page of the panel, gzip-compressed, from the
 * build's manifest: the entry with every chunk it imports statically, plus the lazily loaded
 * page (and its static imports). Run after a build:
 *
 *   pnpm --filter @aplt/admin-web size
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<
  string,
  Chunk
>;

function closure(keys: string[], seen = new Set<string>()): Set<string> {
  for (const key of keys) {
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    closure(manifest[key].imports ?? [], seen);
  }
  return seen;
}

const gz = (file: string) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;

const pages: Record<string, string[]> = {
  '/app/login (signed out)': [entry, 'src/routes/login/login.tsx'],
  '/app (signed in: shell and home)': [entry, 'src/routes/home/home.tsx'],
};
for (const [page, keys] of Object.entries(pages)) {
  const chunks = closure(keys);
  const js = [...chunks].map((k) => manifest[k]!.file);
  const css = [...new Set([...chunks].flatMap((k) => manifest[k]!.css ?? []))];
  const jsBytes = js.reduce((n, f) => n + gz(f), 0);
  const cssBytes = css.reduce((n, f) => n + gz(f), 0);
  console.log(
    `${page}: JavaScript ${(jsBytes / 1024).toFixed(1)} KiB gzip in ${js.length} files, CSS ${(cssBytes / 1024).toFixed(1)} KiB gzip`,
  );
}
