#!/usr/bin/env bash
# Quick start, command 2: lint, type-check, generated-config drift check, the admin panel's build,
# then every test (the panel's browser tests run against that build).
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/lib.sh
ensure_system_packages
ensure_servers
ensure_node_modules

log "lint and type-check"
pnpm_cmd exec turbo run //#lint //#typecheck --output-logs=errors-only
log "generated proxy configuration is current"
pnpm_cmd exec tsx proxy/src/cli.ts --check
build_admin_web
# The fleets the tests start run the bundles the start command runs (just built): on a loaded
# two-core machine, a dozen processes that each compile their TypeScript at start cost minutes.
# A single test file run by hand (vitest) runs the source, as FLEET_RUNTIME's default is tsx.
build_fleet
export FLEET_RUNTIME=compiled
# The storefront is built only when stale: its browser test runs against that build.
ensure_storefront
# The e-invoice tests run the EN 16931 and Peppol Schematron: compiled once, then cached.
log "e-invoice Schematron"
pnpm_cmd exec tsx services/documents/test/output/einvoice-compile.ts
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
