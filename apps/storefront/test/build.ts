import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const appDir = fileURLToPath(new URL('..', import.meta.url));
const sources = ['src', 'public', 'package.json', 'next.config.mjs', 'tsconfig.json'];

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/**
 * `next build` when the build is missing or older than a source file, as deploy/start.sh and
 * deploy/test.sh do (so this acts only when the test file runs alone after an edit).
 */
export function ensureStorefrontBuild(): void {
  const stamp = join(appDir, '.next', 'BUILD_ID');
  const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  if (built > Math.max(...sources.map((s) => newest(join(appDir, s))))) return;
  execFileSync(process.execPath, [join(appDir, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
    cwd: appDir,
    stdio: 'pipe',
  });
}
