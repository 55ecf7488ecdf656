import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import react from '@vitejs/plugin-react';
import autoprefixer from 'autoprefixer';
import tailwindcss from 'tailwindcss';
import { defineConfig, type Plugin } from 'vite';
import tailwindConfig from './tailwind.config';

const here = path.dirname(fileURLToPath(import.meta.url));
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * Writes `.gz` and `.br` beside every compressible file of the build. The admin service sends
 * them to browsers that accept them (@fastify/static `preCompressed`); nothing in front of it
 * compresses (the local proxy does not).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'aplt-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((f) => /\.(js|css|html|svg|json)$/.test(f));
      files.push('index.html');
      await Promise.all(
        [...new Set(files)].map(async (name) => {
          const file = path.join(outDir, name);
          const source = await readFile(file).catch(() => null);
          if (!source || source.length < 1024) return;
          const [gz, br] = await Promise.all([
            gzipAsync(source, { level: 9 }),
            brotliAsync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
          ]);
          await Promise.all([writeFile(`${file}.gz`, gz), writeFile(`${file}.br`, br)]);
        }),
      );
    },
  };
}

export default defineConfig({
  root: here,
  // Served by the admin service under /app (services/admin/src/web/web-app.routes.ts).
  base: '/app/',
  plugins: [react(), precompress()],
  css: { postcss: { plugins: [tailwindcss(tailwindConfig), autoprefixer()] } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // dist/.vite/manifest.json: which chunks a page needs (scripts/first-load-size.ts reads it;
    // the admin service never serves dot folders).
    manifest: true,
    // Vite's per-chunk gzip report costs time on two cores; scripts/first-load-size.ts measures.
    reportCompressedSize: false,
    rollupOptions: {
      output: {
        // React and the router change least often: their own chunk stays cached across releases.
        manualChunks: (id) =>
          /node_modules\/\.pnpm\/(react|react-dom|scheduler|react-router)@/.test(id) ? 'react' : undefined,
      },
      onwarn(warning, warn) {
        // zod ships /*#__PURE__*/ comments in places Rollup drops them: harmless, and noisy.
        if (warning.code === 'INVALID_ANNOTATION') return;
        warn(warning);
      },
    },
  },
  server: {
    // `pnpm --filter @aplt/admin-web dev` against a running fleet: API calls go to the proxy.
    proxy: Object.fromEntries(
      ['/admin', '/auth', '/api'].map((p) => [
        p,
        { target: process.env.ADMIN_DEV_API ?? 'http://acme.localhost:8080', changeOrigin: true },
      ]),
    ),
  },
});
