#!/usr/bin/env bash
# Streams one suite scenario into InfluxDB without containers, through scripts/run-k6.sh (real k6 or
# the Node runner):
#   local: InfluxDB 1.x v1 API on loopback (npm run stack:native starts one), database k6
#   cloud: InfluxDB 2.x / Cloud v2 API with K6_INFLUXDB_ADDR, _ORGANIZATION, _BUCKET, _TOKEN
#   stack/stream-native.sh local|cloud <scenario, e.g. scenarios/smoke/api-health> [profile] [k6 flags...]
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:-}
scenario=${2:-}
profile=${3:-smoke}
if [[ -z "$target" || -z "$scenario" ]]; then
  echo "usage: stack/stream-native.sh local|cloud <scenario, e.g. scenarios/smoke/api-health> [profile]" >&2
  exit 2
fi

case "$target" in
  local)
    influx_url=${LOADLAB_INFLUXDB_V1_URL:-http://127.0.0.1:8086/k6}
    if ! node stack/healthcheck.mjs "${influx_url%/*}/ping" 2>/dev/null; then
      echo "stack: no InfluxDB answers at ${influx_url%/*}; start one with 'npm run stack:native'" >&2
      exit 3
    fi
    output="influxdb=$influx_url"
    # A container's 127.0.0.1 is the container itself, so never pick the container engine here:
    # a real k6 on PATH if there is one (run-k6.sh's first choice), else the Node runner.
    if [[ -z ${LT_ENGINE:-} ]] && ! command -v k6 >/dev/null 2>&1; then export LT_ENGINE=node; fi
    ;;
  cloud)
    node --import tsx scripts/require-env.ts K6_INFLUXDB_ADDR K6_INFLUXDB_ORGANIZATION K6_INFLUXDB_BUCKET \
      K6_INFLUXDB_TOKEN
    # xk6-output-influxdb reads the address, organization, bucket and token from these variables.
    output=xk6-influxdb
    # The v2 output is built into the Node runner and into xk6-built k6 (stack/k6.Dockerfile), not into
    # grafana/k6; set LT_ENGINE=k6 for a k6 built with xk6-output-influxdb on PATH.
    export LT_ENGINE=${LT_ENGINE:-node}
    ;;
  *)
    echo "stack: unknown target '$target' (local or cloud)" >&2
    exit 2
    ;;
esac

testid="$(date -u +%Y%m%dT%H%M%SZ)-$(basename "$scenario")"
echo "stack: streaming $scenario ($profile) with testid=$testid to $output"
npm run --silent build:k6
LT_PROFILE=$profile exec scripts/run-k6.sh "dist/k6/$scenario.js" --tag "testid=$testid" -o "$output" "${@:4}"
