# One image for every service: `docker build --build-arg SERVICE=<name>`; compose builds it per service.
# Each service runs its esbuild bundle (`pnpm build`: services/<name>/dist/*.mjs, our packages bundled
# in, third-party packages loaded from node_modules by file, so the bundle runs inside this /app).

FROM node:20-bookworm-slim AS base
ENV COREPACK_INTEGRITY_KEYS=0 PUPPETEER_SKIP_DOWNLOAD=1 PNPM_HOME=/pnpm
RUN corepack enable && corepack prepare pnpm@9.15.9 --activate
WORKDIR /app

FROM base AS deps
# Native addons (bcrypt, sharp) may need a toolchain when no prebuilt binary matches.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN pnpm fetch
COPY . .
RUN pnpm install --offline --frozen-lockfile
# The admin panel's static build, served by the admin service under /app.
RUN pnpm --filter @aplt/admin-web build
# The storefront's `next build`; its compose service runs apps/storefront/server.mjs on it.
RUN pnpm --filter @aplt/storefront build
# The services' and the fleet tools' bundles.
RUN TURBO_TELEMETRY_DISABLED=1 pnpm build

FROM base AS runtime
# chromium-headless-shell renders PDFs; ghostscript writes EPS; git backs dev projects.
RUN apt-get update \
  && apt-get install -y --no-install-recommends chromium-headless-shell ghostscript git fonts-dejavu-core ca-certificates \
  && rm -rf /var/lib/apt/lists/*
COPY --from=deps --chown=node:node /app /app
# Mount points of compose's named volumes (logo files, dev projects): a new volume takes the
# owner of its mount point, so the node user can write there.
RUN mkdir -p /data/files /data/devprojects && chown -R node:node /data
USER node
ARG SERVICE=admin
# glibc's malloc as the fleet runner sets it: lower idle memory (see deploy/fleet/malloc-env.ts).
ENV SERVICE=${SERVICE} NODE_ENV=production HOST=0.0.0.0 \
    GLIBC_TUNABLES=glibc.malloc.mmap_threshold=32768:glibc.malloc.trim_threshold=65536:glibc.malloc.arena_max=2
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||process.env.DEFAULT_PORT)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["sh", "-c", "exec node --enable-source-maps services/${SERVICE}/dist/server.mjs"]
