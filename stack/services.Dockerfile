# syntax=docker/dockerfile:1
# The loadlab services (sandbox and clinic) from one multi-stage file: a build target per service.
#   docker build -f stack/services.Dockerfile --target sandbox -t loadlab-sandbox .
#   docker build -f stack/services.Dockerfile --target clinic -t loadlab-clinic .
# The services run TypeScript through tsx, a production dependency, so there is no compile stage:
# the image holds the services package's production node_modules (services/package.json: nothing of
# the runner or the lab), its sources without test code, and nothing else (see the .dockerignore).
ARG NODE_IMAGE=node:20.20-alpine

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY services/package.json ./services/package.json
RUN npm ci --omit=dev --workspace=services --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY services ./services
COPY stack/healthcheck.mjs ./stack/healthcheck.mjs
# The official node image ships the unprivileged `node` user; the app files stay root-owned (read-only).
USER node

FROM runtime AS sandbox
ENV HOST=0.0.0.0 PORT=5050 HEALTHCHECK_URL=http://127.0.0.1:5050/health
EXPOSE 5050
HEALTHCHECK --interval=5s --timeout=3s --start-period=10s --retries=6 CMD ["node", "stack/healthcheck.mjs"]
CMD ["node", "--import", "tsx", "services/sandbox/main.ts"]

FROM runtime AS clinic
# One instance per container: CLINIC_INSTANCE=open on 9966 or secure on 9967 (set by compose).
ENV CLINIC_HOST=0.0.0.0 CLINIC_INSTANCE=open CLINIC_PORT=9966 CLINIC_SECURE_PORT=9967 \
    HEALTHCHECK_URL=http://127.0.0.1:9966/petclinic/actuator/health
EXPOSE 9966 9967
HEALTHCHECK --interval=5s --timeout=3s --start-period=10s --retries=6 CMD ["node", "stack/healthcheck.mjs"]
CMD ["node", "--import", "tsx", "services/clinic/main.ts"]
