/**
 * `pnpm proxy:generate [--check]`: writes the committed proxy configurations from the route
 * table: the Traefik dynamic file used by docker-compose and the Caddyfile for a local fleet on
 * the default ports. --check fails when the committed files are stale.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderCaddyfile } from './caddyfile';
import { composeServiceUrl, composeUpstreams, localUpstreams } from './upstreams';
import { renderTraefikDynamic } from './traefik';

const root = fileURLToPath(new URL('../generated/', import.meta.url));

export function generatedFiles(): Record<string, string> {
  return {
    [`${root}traefik/dynamic.yml`]: renderTraefikDynamic({
      domain: 'localhost',
      upstreams: composeUpstreams(),
      forwardAuthUrl: composeServiceUrl('access'),
    }),
    [`${root}Caddyfile`]: renderCaddyfile({
      port: 8080,
      domain: 'localhost',
      upstreams: localUpstreams(),
      bind: '127.0.0.1',
    }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const [file, content] of Object.entries(generatedFiles())) {
    if (check) {
      let current = '';
      try {
        current = readFileSync(file, 'utf8');
      } catch {
        /* missing counts as stale */
      }
      if (current !== content) {
        console.error(`stale: ${file}`);
        stale++;
      }
    } else {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content);
      console.log(`wrote ${file}`);
    }
  }
  if (stale) process.exit(1);
}
