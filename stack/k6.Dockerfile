# syntax=docker/dockerfile:1
# k6 with the InfluxDB v2 output (xk6-output-influxdb), plus the suite's bundles, built with xk6, on a base
# with Chromium so the browser scenario runs here too (as grafana/k6's -with-browser images do).
# The versions are pinned in stack/versions.env; compose.sh passes them as build args, and the defaults
# below are kept equal to that file by stack/images.test.ts for a bare `docker build`:
#   docker build -f stack/k6.Dockerfile -t loadlab-k6 .     (or: npm run grafana:build)
ARG GO_IMAGE=golang:1.25-alpine
ARG NODE_IMAGE=node:20.20-alpine
ARG RUNTIME_IMAGE=alpine:3.22

FROM ${GO_IMAGE} AS k6-builder
ARG XK6_VERSION=1.3.5
ARG K6_VERSION=1.3.0
ARG XK6_OUTPUT_INFLUXDB_VERSION=0.7.0
# xk6 opens --output with O_CREATE only and never makes its folder, so /out is made first.
# Go's module and build caches (GOMODCACHE /go/pkg/mod, GOCACHE /root/.cache/go-build in the golang
# image) are cache mounts: they stay in the builder and out of the layer, so no cache export carries them
# (BuildKit exports layers, never cache mounts).
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    apk add --no-cache git \
 && go install "go.k6.io/xk6/cmd/xk6@v${XK6_VERSION}" \
 && mkdir -p /out \
 && CGO_ENABLED=0 xk6 build --k6-version "v${K6_VERSION}" \
      --with "github.com/grafana/xk6-output-influxdb@v${XK6_OUTPUT_INFLUXDB_VERSION}" \
      --output /out/k6

# The suite is TypeScript; k6 runs the esbuild bundles of `npm run build:k6` (dist/k6/...).
FROM ${NODE_IMAGE} AS bundles
WORKDIR /src
# The suite's types and its threshold grammar come from the k6-format workspace; npm ci links it, so its
# package.json comes first.
COPY package.json package-lock.json ./
COPY k6-format/package.json ./k6-format/package.json
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY k6-format ./k6-format
COPY k6 ./k6
COPY scripts/build-k6.ts ./scripts/build-k6.ts
RUN npm run build:k6

FROM ${RUNTIME_IMAGE}
# Chromium for k6/browser: k6 finds `chromium-browser` on PATH. Inside a container it needs no-sandbox
# (no user namespaces for an unprivileged user) and /tmp instead of the small /dev/shm.
# The user k6 (12345) has its home, as grafana/k6's -with-browser image (`adduser -D -u 12345 -g 12345
# k6`, USER 12345, WORKDIR /home/k6). compose.sh runs the container as the invoking uid instead, which has
# no passwd entry here: the engine would give it HOME=/, a folder it cannot write (runc's
# libcontainer/init_linux.go setupUser takes HOME from passwd, "/" for a uid without an entry, only when
# the image leaves it unset). So HOME is /home/k6, writable by any uid with the sticky bit, as /tmp is:
# Chromium's ~/.cache and ~/.config land in a real home for every uid.
RUN apk add --no-cache ca-certificates chromium-swiftshader \
 && adduser -D -u 12345 -h /home/k6 k6 \
 && mkdir -p /home/k6/results \
 && chown k6:k6 /home/k6/results \
 && chmod 1777 /home/k6
ENV HOME=/home/k6 K6_BROWSER_HEADLESS=true K6_BROWSER_ARGS=no-sandbox,disable-dev-shm-usage
COPY --from=k6-builder /out/k6 /usr/bin/k6
COPY --from=bundles /src/dist/k6 /home/k6/suite
WORKDIR /home/k6
USER k6
# A run-to-completion tool: "healthy" means the binary and its extension load.
HEALTHCHECK --interval=30s --timeout=5s --retries=3 CMD ["k6", "version"]
ENTRYPOINT ["k6"]
CMD ["version"]
