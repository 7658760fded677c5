#!/usr/bin/env bash
# The npm docker:* and grafana:* commands: docker compose on stack/docker-compose.yml with the
# repository's .env, after checking that a container engine answers.
#   stack/compose.sh up|down|smoke|smoke-host|load|stress|grafana-up|grafana-down|build
#   stack/compose.sh stream <scenario path under dist/k6, without .js> [profile]
set -euo pipefail
cd "$(dirname "$0")/.."

if ! docker info >/dev/null 2>&1; then
  echo "stack: no container engine answers ('docker info' failed); start Docker, or use 'npm run stack:native'" >&2
  exit 3
fi

# The k6 service runs as the invoking user, so the results/ folder it writes into stays the user's.
LOADLAB_UID=${LOADLAB_UID:-$(id -u)}
LOADLAB_GID=${LOADLAB_GID:-$(id -g)}
export LOADLAB_UID LOADLAB_GID

env_args=()
if [[ -f .env ]]; then env_args=(--env-file .env); fi
compose() { docker compose -f stack/docker-compose.yml "${env_args[@]}" "$@"; }

# Bundles inside the k6 image (stack/k6.Dockerfile copies dist/k6 to /home/k6/suite).
SMOKE=suite/scenarios/smoke/api-health.js
MIXED=suite/scenarios/load/mixed-traffic.js
STRESS=suite/scenarios/stress/api-breakpoint.js

k6_run() { # profile, script, extra k6 args...
  local profile=$1 script=$2
  shift 2
  compose --profile k6 run --rm -e "LT_PROFILE=$profile" k6 run "$@" "$script"
}

command=${1:-}
case "$command" in
  up) compose --profile services up -d --build --wait ;;
  down) compose --profile services --profile monitoring --profile k6 down ;;
  smoke) k6_run smoke "$SMOKE" "${@:2}" ;;
  smoke-host)
    # The sandbox on the host (npm run start:sandbox), reached through the host gateway.
    compose --profile k6 run --rm --no-deps -e LT_PROFILE=smoke -e BASE_URL=http://host.docker.internal:5050 \
      k6 run "${@:2}" "$SMOKE"
    ;;
  load) k6_run load "$MIXED" "${@:2}" ;;
  stress) k6_run stress "$STRESS" "${@:2}" ;;
  grafana-up)
    compose --profile monitoring up -d --build --wait
    echo "stack: Grafana http://localhost:3000 (dashboards in folder loadlab), Prometheus http://localhost:9090"
    ;;
  grafana-down) compose --profile monitoring --profile k6 down ;;
  build) compose --profile k6 build k6 ;;
  stream)
    scenario=${2:?usage: compose.sh stream <scenario, e.g. scenarios/smoke/api-health> [profile]}
    profile=${3:-smoke}
    testid="$(date -u +%Y%m%dT%H%M%SZ)-$(basename "$scenario")"
    compose --profile monitoring up -d --build --wait
    echo "stack: streaming to InfluxDB (service influxdb) with testid=$testid; Grafana http://localhost:3000"
    k6_run "$profile" "suite/$scenario.js" --tag "testid=$testid" -o xk6-influxdb=http://influxdb:8086 "${@:4}"
    ;;
  *)
    echo "usage: stack/compose.sh up|down|smoke|smoke-host|load|stress|grafana-up|grafana-down|build|stream" >&2
    exit 2
    ;;
esac
