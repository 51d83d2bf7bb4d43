# The dashboard as a container: the same standalone bundle that tests/integration/start-command.test.ts
# runs with `node server.js`. Not built on the development machines (they have no Docker daemon).
#   docker build -t member-dashboard .
#   docker run -p 3000:3000 --env-file production.env member-dashboard   (variables: .env.example)

# 1. Dependencies, from the lockfile only.
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# 2. The build: `next build` with `output: "standalone"`, and the route table the method guard reads.
FROM node:24-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY --from=deps /app/node_modules ./node_modules
COPY . .
RUN npm run build

# 3. The runtime: server.js, the node_modules it traced, the static assets, public/ and the method guard.
FROM node:24-slim AS run
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    NEXT_MANUAL_SIG_HANDLE=1 \
    HOSTNAME=0.0.0.0 \
    PORT=3000
# Owned by root, so the app cannot rewrite its own code; only Next.js's cache folder is writable.
COPY --from=build /app/.next/standalone ./
COPY --from=build /app/.next/static ./.next/static
COPY --from=build /app/public ./public
# The method guard (405 for a method a path does not take), loaded before server.js; Node 24 runs it as is.
# It reads route-methods.json, which `npm run build` wrote into the standalone folder copied above.
COPY --from=build /app/scripts/method-guard.ts ./scripts/method-guard.ts
COPY --from=build /app/lib/http/method-policy.ts ./lib/http/method-policy.ts
COPY --from=build /app/lib/format/bounded-memory.ts ./lib/format/bounded-memory.ts
RUN mkdir -p .next/cache && chown node:node .next/cache
USER node
EXPOSE 3000
# Liveness only; load balancers should route by GET /api/ready.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop): the server stops accepting connections, finishes requests in flight (10 s at most) and exits 0.
STOPSIGNAL SIGTERM
CMD ["node", "--import", "./scripts/method-guard.ts", "server.js"]
