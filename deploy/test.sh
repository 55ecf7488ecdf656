#!/usr/bin/env bash
# Quick start, command 2: lint, type-check, drift checks of the generated proxy config and database types, the builds the tests run
# against (admin panel, compiled services, storefront, Schematron), then every test.
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/lib.sh
ensure_system_packages
ensure_servers
ensure_node_modules

# The builds the tests run against go on beside lint and type-check (those are one process each):
# the admin panel (its browser tests), the compiled fleet (the fleets the tests start run the
# bundles the start command runs; a dozen processes that each compile their TypeScript at start
# cost minutes on a loaded two-core machine; one test file run by hand runs the source, as
# FLEET_RUNTIME's default is tsx), and the EN 16931 and Peppol Schematron (compiled once, cached).
mkdir -p .run
log "lint and type-check; meanwhile the admin panel, the services and the e-invoice Schematron build"
(
  build_admin_web &&
    build_fleet &&
    pnpm_cmd exec tsx services/documents/test/output/einvoice-compile.ts >.run/einvoice-compile.log 2>&1 ||
    { cat .run/einvoice-compile.log >&2 2>/dev/null; exit 1; }
) &
builds=$!
checks=0
pnpm_cmd exec turbo run //#lint:repo //#typecheck:repo --output-logs=errors-only || checks=$?
log "generated proxy configuration and database types are current"
pnpm_cmd exec tsx proxy/src/cli.ts --check || checks=$?
pnpm_cmd exec tsx packages/db/scripts/db-types.ts --check || checks=$?
# After the type-check: it reads the storefront's .next/types, which its build writes.
ensure_storefront || checks=$?
built=0
wait "$builds" || built=$?
if [ "$checks" != 0 ] || [ "$built" != 0 ]; then
  echo "lint, type-check or a build failed (see above)" >&2
  exit 1
fi
export FLEET_RUNTIME=compiled
log "tests"
mkdir -p .run
status=0
pnpm_cmd exec vitest run --reporter=default --reporter=json --outputFile.json=.run/vitest.json "$@" || status=$?
if [ -f .run/vitest.json ]; then
  # A file whose setup failed counts no failed test (its tests are skipped): count it too.
  node -e 'const r=require("./.run/vitest.json");const f=r.testResults.filter((t)=>t.status==="failed"&&!t.assertionResults.some((a)=>a.status==="failed")).length;console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped${f?`, ${f} test files failed before their tests ran`:""}`)'
fi
left=$(psql -h "${PG_HOST:-127.0.0.1}" -U "${PG_USER:-postgres}" -tAc "select count(*) from pg_database where datname ~ '^t[0-9a-f]{8}_'")
left_my=$(mysql -h "${MYSQL_HOST:-127.0.0.1}" -u "${MYSQL_USER:-root}" -N -e "show databases" | grep -cE '^t[0-9a-f]{8}_' || true)
if [ "$left" != 0 ] || [ "$left_my" != 0 ]; then echo "tests left $left PostgreSQL and $left_my MariaDB databases behind" >&2; status=1; fi
exit $status
