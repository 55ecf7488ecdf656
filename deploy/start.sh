#!/usr/bin/env bash
# Quick start, command 1: installs what is missing, builds the admin panel and the storefront when missing or
# stale and the services (cached per package), migrates, seeds the demo tenants and users, starts every service and the proxy, and
# prints the URLs and demo credentials. Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/lib.sh
ensure_system_packages
ensure_servers
# The demo runs some tenants on a second PostgreSQL server; FLEET_PG_SECOND=off keeps one.
export FLEET_PG_SECOND=${FLEET_PG_SECOND-127.0.0.1:5433}
ensure_second_pg
ensure_node_modules
ensure_admin_web
ensure_storefront
build_fleet
# Every process runs its bundle (FLEET_RUNTIME=tsx: the TypeScript source, as the tests do).
export FLEET_RUNTIME=${FLEET_RUNTIME:-compiled}
exec node --enable-source-maps deploy/dist/main.mjs "$@"
