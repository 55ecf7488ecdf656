/**
 * The start command's Node part (deploy/start.sh prepares the machine first): the whole fleet
 * with demo data behind the proxy, until Ctrl-C.
 */
import { demoAdmin, demoTenants } from './seeds/demo-tenants';
import { startFleet } from './run-fleet';

const colours = [31, 32, 33, 34, 35, 36, 91, 92, 93, 94, 95, 96];
const colourOf = new Map<string, number>();
function prefix(name: string): string {
  if (!colourOf.has(name)) colourOf.set(name, colours[colourOf.size % colours.length] ?? 37);
  return `\x1b[${colourOf.get(name)}m${name.padEnd(14)}\x1b[0m|`;
}

// Where the services' own log lines go (FLEET_LOG_OUTPUT): `prefix` through this process, each
// line under its service's coloured name, for a person at a terminal; `files` straight from each
// service into FLEET_LOG_DIR/<name>.log; `stdout` straight to this process's stdout. Default:
// prefix at a terminal (or with --prefix), else files. Prefixing costs a pipe and this process's
// CPU per line, so what runs unattended (and the benchmarks) writes directly.
const LOG_OUTPUTS = ['prefix', 'files', 'stdout'] as const;
const given = process.env.FLEET_LOG_OUTPUT;
if (given && !(LOG_OUTPUTS as readonly string[]).includes(given)) {
  console.error(`FLEET_LOG_OUTPUT must be one of ${LOG_OUTPUTS.join(', ')} (got ${JSON.stringify(given)})`);
  process.exit(1);
}
const logOutput =
  (given as (typeof LOG_OUTPUTS)[number] | undefined) ??
  (process.stdout.isTTY || process.argv.includes('--prefix') ? 'prefix' : 'files');
const logDir = process.env.FLEET_LOG_DIR || '.run/logs';
const fleet = await startFleet({
  log: (line) => console.log(logOutput === 'prefix' ? `${prefix('fleet')} ${line}` : line),
  ...(logOutput === 'prefix'
    ? { serviceOutput: (name: string, line: string) => console.log(`${prefix(name)} ${line}`) }
    : { serviceLogs: logOutput === 'files' ? { dir: logDir } : ('inherit' as const) }),
}).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

const base = `http://127.0.0.1:${fleet.proxyPort}`;
const host = (h: string) => `http://${h}.localhost:${fleet.proxyPort}`;
console.log(`
APLT platform is running behind ${base} (Ctrl-C stops everything)

  tenant backends  ${demoTenants.map((t) => host(t.id)).join('\n                   ')}
  admin panel      ${host('acme')}/app   (any tenant host, /app)
  storefront       ${host('shop.acme')}/   (any tenant: shop.<tenant>; the gatekeeper is on: file an access request, approve it in the admin panel)
  access service   ${host('access')}/login   (licenses: ${host('access')}/admin/licenses)
  customer portal  ${host('portal')}/
  logo modal       ${host('modal')}/modal/

  admin login (every tenant): ${demoAdmin.email} / ${demoAdmin.password}
  service logs: ${logOutput === 'files' ? `${logDir}/<service>.log (FLEET_LOG_OUTPUT=prefix shows them here)` : logOutput === 'stdout' ? 'this output, unprefixed' : 'this output, prefixed (FLEET_LOG_OUTPUT=files writes them straight to files)'}
${fleet.notes.map((n) => `  ${n}`).join('\n')}
  *.localhost resolves in browsers and curl; elsewhere send the Host header:
    curl -H 'Host: acme.localhost' ${base}/-/documents/healthz
`);

let stopping = false;
async function shutdown(code: number) {
  if (stopping) process.exit(1);
  stopping = true;
  console.log('stopping the fleet ...');
  await fleet.stop();
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
// SIGHUP: a rolling restart, every process one at a time (each drains, starts again and is ready
// before the next; with FLEET_REPLICAS=2 the proxy keeps serving throughout).
let rolling = false;
process.on('SIGHUP', () => {
  if (rolling || stopping) return;
  rolling = true;
  void (async () => {
    console.log('rolling restart: every process one at a time ...');
    for (const p of fleet.processes()) {
      if (stopping) break;
      await fleet.restart(p.name);
      // The proxy's health checks (every 2 s) see the replica ready before the next one stops.
      await new Promise((r) => setTimeout(r, 3_000));
    }
    console.log('rolling restart done');
    rolling = false;
  })();
});
void fleet.crashed.then((why) => {
  console.error(`${why}; stopping the fleet`);
  void shutdown(1);
});
