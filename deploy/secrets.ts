/**
 * Secrets are made per install, never shipped. `ensureSecretsFile` keeps a KEY=value file with
 * mode 0600: values already in it stay (restarts keep sessions and tokens valid), missing ones are
 * generated. The start command uses `.run/secrets.env`; `pnpm secrets:generate --compose` writes
 * `.env`, which docker compose reads for the `${VAR}` references in docker-compose.yml.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { generateSecrets, secretNames, secretProblem } from '@aplt/config';

export const LOCAL_SECRETS_FILE = '.run/secrets.env';
export const COMPOSE_SECRETS_FILE = '.env';

/** Database passwords the compose fleet's own PostgreSQL and MariaDB containers are created with. */
const composeOnly = ['POSTGRES_PASSWORD', 'MARIADB_ROOT_PASSWORD'] as const;

export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^\s*([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (m) out[m[1]!] = m[2]!.trim();
  }
  return out;
}

/**
 * Reads `path`, adds every missing or unusable secret, writes it back with mode 0600 and returns
 * the values. A value that is published or too short is replaced, never used.
 */
export function ensureSecretsFile(path: string, opts: { compose?: boolean } = {}): Record<string, string> {
  const file = resolve(path);
  const current = existsSync(file) ? parseEnvFile(readFileSync(file, 'utf8')) : {};
  const fresh: Record<string, string> = { ...generateSecrets() };
  for (const name of opts.compose ? composeOnly : []) fresh[name] = randomBytes(24).toString('base64url');
  const names = [...secretNames, ...(opts.compose ? composeOnly : [])];
  // The key pair is one secret: both halves are kept or both replaced.
  const pairOk =
    current.ACCESS_ASSERTION_PRIVATE_KEY !== undefined && current.ACCESS_ASSERTION_PUBLIC_KEY !== undefined;
  const values: Record<string, string> = {};
  let changed = !existsSync(file);
  for (const name of names) {
    const kept = current[name];
    const isKey = name.startsWith('ACCESS_ASSERTION_');
    const usable = kept !== undefined && (isKey ? pairOk : secretProblem(kept) === undefined);
    values[name] = usable ? kept : fresh[name]!;
    if (!usable) changed = true;
  }
  if (changed) {
    mkdirSync(dirname(file), { recursive: true });
    const lines = [
      '# Generated per install by deploy/secrets.ts; keep private (mode 0600), never commit.',
      ...names.map((n) => `${n}=${values[n]}`),
      '',
    ];
    writeFileSync(file, lines.join('\n'), { mode: 0o600 });
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  return values;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const compose = process.argv.includes('--compose');
  const path = compose ? COMPOSE_SECRETS_FILE : LOCAL_SECRETS_FILE;
  const values = ensureSecretsFile(path, { compose });
  console.log(`${path}: ${Object.keys(values).length} secrets (mode 0600)`);
}
