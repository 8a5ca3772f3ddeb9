# sports-graph as a container: the bundle from `npm run build` and its few
# runtime packages, run by `node` as an unprivileged user. Build with
# `docker build -t sports-graph .`; see README "Running in production".
# Node 24 is the current LTS line, the newest that package.json's `engines` promises.
# test/dockerfile.test.ts builds each stage without Docker (from exactly the files
# its COPY lines name) and starts the last one's CMD: keep to what it understands.

# 1. Build: every dependency (esbuild, tsx), then the bundle in /app/dist.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
# The build runs codegen first (possible-types.json ships in dist/): codegen.ts is an input too.
COPY tsconfig.json codegen.ts ./
COPY scripts/build.ts scripts/
COPY schema schema
COPY examples/operations examples/operations
COPY resolvers resolvers
COPY src src
# The embedded sandbox upstream, bundled into dist/ with the gateway (npm start runs on it offline).
COPY sandbox sandbox
RUN npm run build

# 2. Runtime packages only: the bundle leaves out native addons
#    (fs-native-extensions, the DATA_DIR lock; lmdb with its prebuilt
#    @lmdb/lmdb-linux-* binary, the upstream cache file) and GraphiQL's assets.
FROM node:24-bookworm-slim AS runtime-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# 3. What runs: the compiled output, no sources, no dev tools.
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=runtime-deps /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY package.json ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 4000
# Liveness; point a load balancer's readiness check at /readyz.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||4000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM drains: in-flight operations finish (SHUTDOWN_TIMEOUT_MS), subscriptions complete, the ledger is written.
STOPSIGNAL SIGTERM
CMD ["node", "dist/main.js"]
