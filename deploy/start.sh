#!/usr/bin/env bash
# Quick start, command 1: installs what is missing, builds the admin panel and the storefront when missing or
# stale, migrates, seeds the demo tenants and users, starts every service and the proxy, and
# prints the URLs and demo credentials. Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
source deploy/lib.sh
ensure_system_packages
ensure_servers
ensure_node_modules
ensure_admin_web
ensure_storefront
exec node --import tsx deploy/fleet/main.ts "$@"
