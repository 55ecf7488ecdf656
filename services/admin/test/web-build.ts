import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const webDir = fileURLToPath(new URL('../web', import.meta.url));
export const webDist = join(webDir, 'dist');

const sources = ['src', 'public', 'index.html', 'package.json', 'vite.config.ts', 'tailwind.config.ts'];

function newestSource(path: string): number {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestSource(join(path, name))));
}

/**
 * Builds the panel when its build is missing or older than a source file, as deploy/start.sh
 * does (deploy/test.sh builds before every run, so this only acts when a test file runs alone).
 */
export function ensureWebBuild(): void {
  const index = join(webDist, 'index.html');
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  if (built > Math.max(...sources.map((s) => newestSource(join(webDir, s))))) return;
  execFileSync(process.execPath, [join(webDir, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
    cwd: webDir,
    stdio: 'pipe',
  });
}
