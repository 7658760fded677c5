# syntax=docker/dockerfile:1
# k6 with the InfluxDB v2 output (xk6-output-influxdb), plus the suite's bundles, built with xk6.
# Versions are pinned: xk6-output-influxdb v0.7.0 is the release built against k6 v1.x.
#   docker build -f stack/k6.Dockerfile -t loadlab-k6 .     (or: npm run grafana:build)
ARG GO_IMAGE=golang:1.25-alpine
ARG NODE_IMAGE=node:20.20-alpine
ARG RUNTIME_IMAGE=alpine:3.22

FROM ${GO_IMAGE} AS k6-builder
ARG XK6_VERSION=v1.3.5
ARG K6_VERSION=v1.3.0
ARG XK6_OUTPUT_INFLUXDB_VERSION=v0.7.0
# xk6 reads the k6 version to build from K6_VERSION (every xk6 release does).
RUN apk add --no-cache git \
 && go install "go.k6.io/xk6/cmd/xk6@${XK6_VERSION}" \
 && CGO_ENABLED=0 K6_VERSION="${K6_VERSION}" xk6 build \
      --with "github.com/grafana/xk6-output-influxdb@${XK6_OUTPUT_INFLUXDB_VERSION}" \
      --output /out/k6

# The suite is TypeScript; k6 runs the esbuild bundles of `npm run build:k6` (dist/k6/...).
FROM ${NODE_IMAGE} AS bundles
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY k6 ./k6
COPY scripts/build-k6.ts ./scripts/build-k6.ts
COPY services/shared/entry.ts ./services/shared/entry.ts
RUN npm run build:k6

FROM ${RUNTIME_IMAGE}
RUN apk add --no-cache ca-certificates \
 && adduser -D -H -u 12345 -h /home/k6 k6 \
 && mkdir -p /home/k6/results && chown k6:k6 /home/k6/results
COPY --from=k6-builder /out/k6 /usr/bin/k6
COPY --from=bundles /src/dist/k6 /home/k6/suite
WORKDIR /home/k6
USER k6
# A run-to-completion tool: "healthy" means the binary and its extension load.
HEALTHCHECK --interval=30s --timeout=5s --retries=3 CMD ["k6", "version"]
ENTRYPOINT ["k6"]
CMD ["version"]
