# Shared by start.sh, test.sh and .ci/run: make a fresh machine of this kind ready, idempotently.
# shellcheck shell=bash

export COREPACK_INTEGRITY_KEYS=0      # corepack's signature check fails against this registry
export PUPPETEER_SKIP_DOWNLOAD=1      # we render with Debian's chromium, never a downloaded one
PNPM_VERSION=9.15.9

log() { printf '\033[1;34m==>\033[0m %s\n' "$*"; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# A pnpm shim on PATH that runs the pinned version through corepack: turbo looks pnpm up on PATH.
mkdir -p .run/bin
if [ ! -x .run/bin/pnpm ]; then
  printf '#!/bin/sh\nexec corepack pnpm@%s "$@"\n' "$PNPM_VERSION" > .run/bin/pnpm
  chmod +x .run/bin/pnpm
fi
export PATH="$PWD/.run/bin:$PATH"

pnpm_cmd() { pnpm "$@"; }

# Debian packages the platform runs with: caddy (local proxy), chromium + headless shell (PDFs,
# browser tests), poppler-utils (PDF checks), ghostscript (EPS), libxml2-utils (XSD validation).
ensure_system_packages() {
  local missing=()
  command -v caddy >/dev/null || missing+=(caddy)
  command -v chromium >/dev/null || missing+=(chromium)
  command -v chromium-headless-shell >/dev/null || missing+=(chromium-headless-shell)
  command -v pdftotext >/dev/null || missing+=(poppler-utils)
  command -v gs >/dev/null || missing+=(ghostscript)
  command -v xmllint >/dev/null || missing+=(libxml2-utils)
  command -v git >/dev/null || missing+=(git)
  # Not `grep -q`: it stops reading at the first match, fc-list dies of SIGPIPE, and under
  # pipefail the font counted as missing (reinstalled on every run).
  [ -n "$(fc-list : family 2>/dev/null | grep -i dejavu)" ] || missing+=(fonts-dejavu-core)
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

wait_for() { # name, command...
  local name=$1; shift
  for _ in $(seq 1 60); do "$@" >/dev/null 2>&1 && return 0; sleep 0.5; done
  echo "$name did not come up" >&2; return 1
}

# The local PostgreSQL, MariaDB and Redis on their standard ports; started when stopped.
ensure_servers() {
  local pg_host=${PG_HOST:-127.0.0.1} pg_port=${PG_PORT:-5432}
  if ! pg_isready -q -h "$pg_host" -p "$pg_port"; then
    log "starting PostgreSQL"
    as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
    wait_for PostgreSQL pg_isready -q -h "$pg_host" -p "$pg_port"
  fi
  # Every tenant has two databases and every service a pool per tenant: 100 connections is tight.
  local max
  max=$(psql -h "$pg_host" -p "$pg_port" -U "${PG_USER:-postgres}" -tAc 'show max_connections' 2>/dev/null || echo 0)
  if [ "${max:-0}" -lt 400 ] && [ "$pg_host" = 127.0.0.1 ]; then
    log "raising PostgreSQL max_connections to 400"
    psql -h "$pg_host" -p "$pg_port" -U "${PG_USER:-postgres}" -qc 'ALTER SYSTEM SET max_connections = 400' >/dev/null
    as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main restart
    wait_for PostgreSQL pg_isready -q -h "$pg_host" -p "$pg_port"
  fi
  if ! mysqladmin ping -h "${MYSQL_HOST:-127.0.0.1}" -P "${MYSQL_PORT:-3306}" -u "${MYSQL_USER:-root}" >/dev/null 2>&1; then
    log "starting MariaDB"
    as_root mkdir -p /run/mysqld && as_root chown mysql:mysql /run/mysqld
    as_root start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd -- --user=mysql
    wait_for MariaDB mysqladmin ping -h "${MYSQL_HOST:-127.0.0.1}" -P "${MYSQL_PORT:-3306}" -u "${MYSQL_USER:-root}"
  fi
  ensure_redis
}

# Redis holds every queued job (password syncs, mails, callbacks, connector runs): it runs with
# the append-only file (fsync once a second: a crash loses at most the last second) and never
# evicts keys (BullMQ requires noeviction), its data in /var/lib/redis. A running local Redis
# with other settings is switched with CONFIG SET (and told so); the services check both at
# start-up (packages/queue: refuse under NODE_ENV=production, warn otherwise).
ensure_redis() {
  local url=${REDIS_URL:-redis://127.0.0.1:6379}
  if ! redis-cli -u "$url" ping >/dev/null 2>&1; then
    log "starting Redis (append-only file in /var/lib/redis, noeviction)"
    as_root mkdir -p /var/lib/redis /var/log/redis
    as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
      --appendonly yes --appendfsync everysec --maxmemory-policy noeviction \
      --dir /var/lib/redis --logfile /var/log/redis/ci.log
    wait_for Redis redis-cli -u "$url" ping
  fi
  local setting want have
  for setting in appendonly:yes appendfsync:everysec maxmemory-policy:noeviction; do
    want=${setting#*:}
    have=$(redis-cli -u "$url" config get "${setting%%:*}" 2>/dev/null | sed -n 2p)
    if [ -n "$have" ] && [ "$have" != "$want" ]; then
      log "Redis runs with ${setting%%:*} $have; setting it to $want (CONFIG SET, until Redis restarts)"
      redis-cli -u "$url" config set "${setting%%:*}" "$want" >/dev/null
    elif [ -z "$have" ]; then
      log "cannot read Redis ${setting%%:*} (CONFIG GET refused?): make sure it is $want"
    fi
  done
}

# A second local PostgreSQL server (issue #18: tenants on several servers) on FLEET_PG_SECOND
# (`host:port`, or a port on 127.0.0.1; `off` or empty: one server). Debian's pg_createcluster
# makes the cluster `second` once (trust on loopback like the main one), pg_ctlcluster starts it
# when stopped. The demo seed puts some tenants there (deploy/fleet/seeds/tenants.ts). Where it
# cannot be made (no pg_createcluster) the fleet runs on one server and says so: never fatal.
ensure_second_pg() {
  local spec=${FLEET_PG_SECOND:-} host port version
  case "$spec" in '' | off | no | false | 0) export FLEET_PG_SECOND=; return 0 ;; esac
  if [[ $spec =~ ^[0-9]+$ ]]; then host=127.0.0.1 port=$spec; else host=${spec%:*} port=${spec##*:}; fi
  export FLEET_PG_SECOND="$host:$port"
  pg_isready -q -h "$host" -p "$port" && return 0
  if [ "$host" != 127.0.0.1 ] || ! command -v pg_createcluster >/dev/null; then
    log "second PostgreSQL $host:$port does not answer and cannot be made here: every tenant on one server"
    export FLEET_PG_SECOND=; return 0
  fi
  version=$(ls /etc/postgresql | head -1)
  if [ ! -d "/etc/postgresql/$version/second" ]; then
    log "creating PostgreSQL cluster $version/second on port $port"
    as_root pg_createcluster "$version" second -p "$port" -o max_connections=200 -- --auth=trust >/dev/null ||
      { log "pg_createcluster failed: every tenant on one server"; export FLEET_PG_SECOND=; return 0; }
  fi
  log "starting PostgreSQL $version/second"
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" second start || true
  if ! wait_for "PostgreSQL $version/second" pg_isready -q -h "$host" -p "$port"; then
    log "the second PostgreSQL did not come up on port $port: every tenant on one server"
    export FLEET_PG_SECOND=
  fi
}

ensure_node_modules() {
  if ! command -v corepack >/dev/null 2>&1; then echo "corepack (Node.js 20+) is required" >&2; exit 1; fi
  local stamp=node_modules/.install-stamp
  if [ ! -f "$stamp" ] || [ pnpm-lock.yaml -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
    log "installing Node packages (pnpm $PNPM_VERSION)"
    pnpm_cmd install --frozen-lockfile
    touch "$stamp"
  fi
}

# The staff admin panel (services/admin/web): Vite builds it to dist/, the admin service serves it
# under /app. Stale when dist is missing or older than any of its files or the lockfile.
ADMIN_WEB_DIR=services/admin/web
admin_web_stale() {
  local index=$ADMIN_WEB_DIR/dist/index.html
  [ -f "$index" ] || return 0
  [ pnpm-lock.yaml -nt "$index" ] && return 0
  [ -n "$(find "$ADMIN_WEB_DIR" \( -path "$ADMIN_WEB_DIR/node_modules" -o -path "$ADMIN_WEB_DIR/dist" \) -prune \
    -o -type f -newer "$index" -print -quit)" ]
}

build_admin_web() {
  log "building the admin panel (services/admin/web)"
  mkdir -p .run
  if ! pnpm_cmd --filter @aplt/admin-web build >.run/admin-web-build.log 2>&1; then
    cat .run/admin-web-build.log >&2
    echo "the admin panel did not build (log: .run/admin-web-build.log)" >&2
    return 1
  fi
}

ensure_admin_web() {
  if admin_web_stale; then build_admin_web; fi
}

# The customer storefront (apps/storefront, Next.js): `next build` to .next/, run by the fleet with
# `next start`. Stale when the build is missing or older than any of its files or the lockfile.
STOREFRONT_DIR=apps/storefront
storefront_stale() {
  local stamp=$STOREFRONT_DIR/.next/BUILD_ID
  [ -f "$stamp" ] || return 0
  [ pnpm-lock.yaml -nt "$stamp" ] && return 0
  [ -n "$(find "$STOREFRONT_DIR" \( -path "$STOREFRONT_DIR/node_modules" -o -path "$STOREFRONT_DIR/.next" -o -path "$STOREFRONT_DIR/test" \) -prune \
    -o -type f -newer "$stamp" -print -quit)" ]
}

build_storefront() {
  log "building the storefront (apps/storefront)"
  mkdir -p .run
  if ! pnpm_cmd --filter @aplt/storefront build >.run/storefront-build.log 2>&1; then
    cat .run/storefront-build.log >&2
    echo "the storefront did not build (log: .run/storefront-build.log)" >&2
    return 1
  fi
}

ensure_storefront() {
  if storefront_stale; then build_storefront; fi
}

# The compiled fleet: one esbuild bundle per service process and the fleet runner
# (deploy/build/bundle.ts), built by turbo, which restores an unchanged package from its cache.
build_fleet() {
  log "building the services (turbo: unchanged packages come from the cache)"
  mkdir -p .run
  if ! TURBO_TELEMETRY_DISABLED=1 pnpm_cmd run build >.run/fleet-build.log 2>&1; then
    cat .run/fleet-build.log >&2
    echo "the services did not build (log: .run/fleet-build.log)" >&2
    return 1
  fi
}
