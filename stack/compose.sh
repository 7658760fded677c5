#!/usr/bin/env bash
# The npm docker:*, grafana:* and test:*:grafana commands: docker compose on stack/docker-compose.yml with
# the repository's .env and the versions of stack/versions.env, after checking that a container engine
# answers.
#   stack/compose.sh up|down|reset|smoke|smoke-host|load|stress|grafana-up|grafana-down|build
#   stack/compose.sh stream <scenario path under dist/k6, without .js> [profile] [k6 flags...]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/container.sh
. scripts/lib/container.sh

if ! docker info >/dev/null 2>&1; then
  echo "stack: no container engine answers ('docker info' failed); start Docker, or use 'npm run stack:native'" >&2
  exit 3
fi

# The k6 service runs as the invoking user, so the results/ folder it writes into stays the user's;
# it is made here first, else the engine would make it for the bind mount, owned by root.
LOADLAB_UID=${LOADLAB_UID:-$(id -u)}
LOADLAB_GID=${LOADLAB_GID:-$(id -g)}
export LOADLAB_UID LOADLAB_GID
make_results_dirs
load_versions .
export K6_VERSION XK6_VERSION XK6_OUTPUT_INFLUXDB_VERSION

env_args=()
if [[ -f .env ]]; then env_args=(--env-file .env); fi
# ${a[@]+"${a[@]}"}: bash 3.2 (macOS) with set -u calls an empty array unbound.
compose() { docker compose -f stack/docker-compose.yml ${env_args[@]+"${env_args[@]}"} "$@"; }

# Bundles inside the k6 image (stack/k6.Dockerfile copies dist/k6 to /home/k6/suite).
SMOKE=suite/scenarios/smoke/api-health.js
MIXED=suite/scenarios/load/mixed-traffic.js
STRESS=suite/scenarios/stress/api-breakpoint.js

# `run --build` rebuilds the k6 image when k6/*.ts changed (the build cache makes it quick otherwise);
# plain `run` would keep running the bundles of the last `grafana:build`.
k6_run() { # profile, script, extra k6 args...
  local profile=$1 script=$2
  shift 2
  compose --profile k6 run --rm --build -e "LT_PROFILE=$profile" k6 run "$@" "$script"
}

# InfluxDB and Grafana take their admin token and password only on an empty volume: a .env generated
# later holds other ones, and every write or login answers 401. Say so in one line, with the way out.
check_stack_secrets() {
  node --import tsx scripts/stack-doctor.ts secrets
}

command=${1:-}
[[ $# -eq 0 ]] || shift
case "$command" in
  up) compose --profile services up -d --build --wait ;;
  down) compose --profile services --profile monitoring --profile k6 down ;;
  reset)
    # The only way to make InfluxDB and Grafana take new secrets from .env: their data goes too.
    compose --profile services --profile monitoring --profile k6 down -v
    echo "stack: containers and volumes removed; the next grafana:up initialises InfluxDB and Grafana from .env"
    ;;
  smoke) k6_run smoke "$SMOKE" "$@" ;;
  smoke-host)
    # The sandbox on the host (npm run start:sandbox): over the host network on a native Linux engine,
    # through host.docker.internal on Docker Desktop.
    network=$(container_network) || exit 2
    if [[ $network == host ]]; then
      echo "stack: the k6 container calls the host's sandbox at http://127.0.0.1:5050 over the host network" >&2
      compose --profile k6 run --rm --build --no-deps -e LT_PROFILE=smoke k6-host run "$@" "$SMOKE"
    else
      echo "stack: the k6 container calls the host's sandbox at http://host.docker.internal:5050 (Docker Desktop's host gateway)" >&2
      compose --profile k6 run --rm --build --no-deps -e LT_PROFILE=smoke \
        -e BASE_URL=http://host.docker.internal:5050 k6 run "$@" "$SMOKE"
    fi
    ;;
  load) k6_run load "$MIXED" "$@" ;;
  stress) k6_run stress "$STRESS" "$@" ;;
  grafana-up)
    compose --profile monitoring up -d --build --wait
    check_stack_secrets
    echo "stack: Grafana http://localhost:3000 (dashboards in folder loadlab), Prometheus http://localhost:9090"
    ;;
  grafana-down) compose --profile monitoring --profile k6 down ;;
  build) compose --profile k6 build k6 ;;
  stream)
    scenario=${1:?usage: compose.sh stream <scenario, e.g. scenarios/smoke/api-health> [profile] [k6 flags...]}
    profile=${2:-smoke}
    shift $(($# >= 2 ? 2 : 1))
    testid="$(date -u +%Y%m%dT%H%M%SZ)-$(basename "$scenario")"
    compose --profile monitoring up -d --build --wait
    check_stack_secrets
    echo "stack: streaming to InfluxDB (service influxdb) with testid=$testid; Grafana http://localhost:3000"
    started=$(date +%s)
    code=0
    k6_run "$profile" "suite/$scenario.js" --tag "testid=$testid" -o xk6-influxdb=http://influxdb:8086 "$@" || code=$?
    # What `npm run stack:verify` checks the stack against: the run's testid, its window and how the
    # k6 container exited (stack/verify/run-record.ts reads it).
    mkdir -p results/stack
    printf 'testid=%s\nscenario=%s\nprofile=%s\nstarted=%s\nended=%s\nexit=%s\n' \
      "$testid" "$scenario" "$profile" "$started" "$(date +%s)" "$code" >results/stack/last-run.env
    exit "$code"
    ;;
  *)
    echo "usage: stack/compose.sh up|down|reset|smoke|smoke-host|load|stress|grafana-up|grafana-down|build|stream" >&2
    exit 2
    ;;
esac
