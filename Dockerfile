# syntax=docker/dockerfile:1
# One image for every app and the deployment steps; the command picks what runs:
#   node dist/apps/<app>/main.js            gateway, auth, kyc, orders, payment-ingest, chain-settlement, webhook-dispatch
#   node dist/tools/migrate/main.js [all|<service>]
#   node dist/tools/kafka-topics/main.js
#   node dist/tools/ops/reconcile.js | replay-dlq.js   (operator tools)
# Compiled JavaScript on Node 22 LTS with production dependencies only; docs/deploy-build.md explains it.
ARG NODE_IMAGE=node:22.23.4-bookworm-slim

# --- build: every dependency, then `npm run build` (tsc + alias rewrite) into dist/
FROM ${NODE_IMAGE} AS build
WORKDIR /build
COPY package.json package-lock.json ./
# Scripts off: the build needs only tsc; the local tools' installers (anvil, embedded Postgres) are not wanted.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.base.json tsconfig.build.json ./
COPY tools/build ./tools/build
COPY tools/migrate ./tools/migrate
COPY tools/kafka-topics ./tools/kafka-topics
COPY tools/healthcheck ./tools/healthcheck
COPY tools/ops ./tools/ops
COPY apps ./apps
COPY libs ./libs
COPY docs/openapi ./docs/openapi
RUN node tools/build/build.js

# --- deps: production dependencies only. Optional dependencies stay: they carry the native bindings
# (@node-rs/argon2's linux-x64-gnu package), resolved for the build platform.
FROM ${NODE_IMAGE} AS deps
WORKDIR /srv/onramp
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && rm -rf /root/.npm

# --- runtime
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    ONRAMP_MODE=production \
    HOST=0.0.0.0 \
    GATEWAY_HOST=0.0.0.0 \
    HOME=/tmp
WORKDIR /srv/onramp
COPY --from=deps --chown=0:0 /srv/onramp/node_modules ./node_modules
COPY --from=build --chown=0:0 /build/dist ./dist
COPY --chown=0:0 package.json ./
# Numeric, non-root, owning nothing: the root filesystem can be mounted read-only (no compiler cache,
# nothing written outside /tmp).
USER 10001:10001
EXPOSE 3000 3001 3010 3011 3012 3013 3014 3015
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD ["node", "dist/tools/healthcheck/main.js"]
CMD ["node", "dist/apps/gateway/main.js"]
