# One image for every app; APP selects which one runs (gateway, auth, kyc, orders, payment-ingest,
# chain-settlement, webhook-dispatch).
FROM node:20-bookworm-slim
WORKDIR /srv/onramp
COPY package.json package-lock.json ./
RUN npm ci --omit=optional --no-audit --no-fund
COPY tsconfig.base.json tsconfig.json .swcrc ./
COPY apps ./apps
COPY libs ./libs
COPY docs/openapi ./docs/openapi
ENV NODE_ENV=production HOST=0.0.0.0 GATEWAY_HOST=0.0.0.0
USER node
CMD ["sh", "-c", "exec node -r @swc-node/register apps/${APP}/src/main.ts"]
