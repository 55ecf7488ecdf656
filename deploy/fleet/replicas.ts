/** More would only fight over the machine's cores; a typo like 20 fails instead. */
export const MAX_REPLICAS = 8;

/**
 * FLEET_REPLICAS: how many processes of each fleet process (by its manifest name) run, each on
 * its own port behind the proxy. `2` runs two of every one; `2,catalog=3,catalog-worker=1` two
 * of each but three catalog HTTP processes and one catalog worker; unset or `1`: one of each.
 * Returns the count of each name; a bad value throws what is wrong with it (loadEnv names the
 * variable and the value).
 */
export function parseReplicas(value: string, names: readonly string[]): Record<string, number> {
  const fail = (why: string): never => {
    throw new Error(`${why}; e.g. 2 or 2,catalog=3`);
  };
  const count = (text: string) => {
    if (!/^\d+$/.test(text)) return fail(`${JSON.stringify(text)} is not a whole number`);
    const n = Number(text);
    if (n < 1 || n > MAX_REPLICAS) return fail(`a count must be between 1 and ${MAX_REPLICAS}`);
    return n;
  };
  let fallback = 1;
  const given = new Map<string, number>();
  const parts = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const [i, part] of parts.entries()) {
    const eq = part.indexOf('=');
    if (eq < 0) {
      if (i !== 0) fail('the count for every process comes first');
      fallback = count(part);
      continue;
    }
    const name = part.slice(0, eq).trim();
    if (!names.includes(name)) fail(`${JSON.stringify(name)} is no fleet process (${names.join(', ')})`);
    if (given.has(name)) fail(`${name} is given twice`);
    given.set(name, count(part.slice(eq + 1).trim()));
  }
  return Object.fromEntries(names.map((n) => [n, given.get(n) ?? fallback]));
}
