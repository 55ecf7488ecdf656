import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jwtEnv, loadEnv, secretNames, secretProblem } from '@aplt/config';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ensureSecretsFile, parseEnvFile } from '../secrets';

const root = new URL('../../', import.meta.url).pathname;

describe('per-install secrets', () => {
  it('are made once with mode 0600, kept across starts, and a published value is replaced', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'secrets-')), 'secrets.env');
    const first = ensureSecretsFile(file);
    expect(Object.keys(first).sort()).toEqual([...secretNames].sort());
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadEnv(jwtEnv, first).JWT_SECRET).toBe(first.JWT_SECRET);
    expect(ensureSecretsFile(file)).toEqual(first);
    // Someone pasted the old published default: it is replaced, the rest is kept.
    const text = readFileSync(file, 'utf8').replace(first.JWT_SECRET!, 'dev-only-jwt-secret-change-me');
    writeFileSync(file, text, { mode: 0o644 });
    const again = ensureSecretsFile(file);
    expect(again.JWT_SECRET).not.toBe('dev-only-jwt-secret-change-me');
    expect(secretProblem(again.JWT_SECRET!)).toBeUndefined();
    expect(again.SERVICE_TOKEN).toBe(first.SERVICE_TOKEN);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(parseEnvFile(readFileSync(file, 'utf8'))).toEqual(again);
  });

  it('compose has no default for any secret and says how to make them', () => {
    const text = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
    const compose = parse(text, { merge: true });
    const env = compose.services.documents.environment;
    for (const name of [...secretNames, 'SERVICE_TOKEN']) {
      expect(env[name], name).toBe(`\${${name}:?run pnpm secrets:generate --compose}`);
    }
    for (const name of ['POSTGRES_PASSWORD', 'MARIADB_ROOT_PASSWORD'])
      expect(text).not.toMatch(new RegExp(`\\$\\{${name}:-`));
  });

  it('no secret that a service would accept is committed anywhere in the repository', () => {
    const files = execFileSync('git', ['ls-files'], { cwd: root })
      .toString()
      .split('\n')
      .filter((f) => /\.(ts|js|json|ya?ml|env|sh|md)$/.test(f) && !f.endsWith('pnpm-lock.yaml'));
    const names = secretNames.join('|');
    const assignment = new RegExp(`(?:${names})['"]?\\s*[:=]\\s*['"\`]?([^'"\`\\s,}]+)`, 'g');
    const working: string[] = [];
    for (const f of files) {
      const text = readFileSync(join(root, f), 'utf8');
      for (const m of text.matchAll(assignment)) {
        const value = m[1]!;
        // References to variables or generated values, not literals.
        // Expressions (a variable, a call, a property) and template references are not literals.
        if (/^[$(]|^[A-Za-z_][\w]*(?:[.([]|$)/.test(value) && !/^[A-Za-z0-9_-]{32,}$/.test(value)) continue;
        if (value.startsWith('ACCESS_ASSERTION') || !/[A-Za-z0-9]{8}/.test(value)) continue;
        if (secretProblem(value) === undefined) working.push(`${f}: ${m[0]}`);
      }
    }
    expect(working).toEqual([]);
  });
});
