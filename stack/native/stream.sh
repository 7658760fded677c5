#!/usr/bin/env bash
# Streams any suite scenario or journey into InfluxDB without containers, through scripts/run-k6.sh:
#   local: the InfluxDB at LOADLAB_INFLUXDB_LOCAL_URL (default http://127.0.0.1:8086/k6, the path is the
#          database or bucket), asked which version it is (/ping, stack/native/influx-target.ts): 1.x (npm run
#          stack:native) gets k6's v1 output; 2.x (the compose InfluxDB of grafana:up) the v2 write API
#          with INFLUXDB_ORG, INFLUXDB_BUCKET and INFLUXDB_ADMIN_TOKEN
#   cloud: InfluxDB 2.x / Cloud v2 API with K6_INFLUXDB_ADDR, _ORGANIZATION, _BUCKET, _TOKEN
# The v2 API needs the xk6-influxdb output: a k6 built with xk6-output-influxdb streams when there is
# one (LT_XK6_BINARY names it, else a k6 on PATH that has it), else the Node runner, which has it built in.
#   stack/native/stream.sh local|cloud <scenario, e.g. scenarios/smoke/api-health> [profile] [k6 flags...]
set -euo pipefail
cd "$(dirname "$0")/../.."

target=${1:-}
scenario=${2:-}
profile=${3:-smoke}
usage="usage: stack/native/stream.sh local|cloud <scenario, e.g. scenarios/smoke/api-health or journeys/login-flow> [profile] [k6 flags...]"
if [[ -z "$target" || -z "$scenario" ]]; then
  echo "$usage" >&2
  exit 2
fi
if [[ $target != local && $target != cloud ]]; then
  echo "stack: unknown target '$target' (local or cloud)" >&2
  exit 2
fi
scenario=${scenario%.js}
scenario=${scenario%.ts}
if [[ ! -f "k6/$scenario.ts" ]]; then
  echo "stack: no scenario k6/$scenario.ts (try scenarios/load/api-auth or journeys/login-flow)" >&2
  exit 2
fi

# A k6 built with xk6-output-influxdb: LT_XK6_BINARY when set (it must have the output), else a k6 on
# PATH that lists it in `k6 version`. run-k6.sh (LT_ENGINE=k6) runs the one LT_K6_BINARY names (a link
# under results/ was left dangling when the binary went away, and results/ is the user's reports).
use_xk6_k6() {
  local bin=${LT_XK6_BINARY:-}
  if [[ -n $bin ]]; then
    if [[ ! -x $bin ]]; then
      echo "stack: LT_XK6_BINARY=$bin is not an executable file" >&2
      exit 2
    fi
    if ! "$bin" version 2>/dev/null | grep -q 'xk6-influxdb\|xk6-output-influxdb'; then
      echo "stack: LT_XK6_BINARY=$bin has no xk6-influxdb output ('$bin version' does not list xk6-output-influxdb)" >&2
      exit 2
    fi
  elif command -v k6 >/dev/null 2>&1 && k6 version 2>/dev/null | grep -q 'xk6-influxdb\|xk6-output-influxdb'; then
    bin=$(command -v k6)
  else
    return 1
  fi
  [[ $bin == */* ]] || bin=$(command -v "$bin")
  [[ $bin == /* ]] || bin="$PWD/$bin"
  export LT_K6_BINARY=$bin LT_ENGINE=k6
  engine_line="real k6 with xk6-output-influxdb ($bin)"
}

# The v2 write API: an xk6 k6 when there is one, else the Node runner (plain k6 has no v2 output).
# LT_ENGINE=node keeps the runner; LT_ENGINE=k6 or docker cannot stream there without an xk6 k6.
pick_v2_engine() {
  if [[ ${LT_ENGINE:-} == node ]]; then
    engine_line="the Node runner (LT_ENGINE=node)"
    return
  fi
  use_xk6_k6 && return
  if [[ -n ${LT_ENGINE:-} ]]; then
    echo "stack: LT_ENGINE=$LT_ENGINE cannot stream to the v2 API (plain k6 has no xk6-influxdb output); name a k6 built with xk6-output-influxdb in LT_XK6_BINARY, or leave LT_ENGINE unset" >&2
    exit 2
  fi
  export LT_ENGINE=node
  engine_line="the Node runner (no k6 with xk6-output-influxdb; LT_XK6_BINARY names one)"
}

engine_line=""
case "$target" in
  local)
    influx_url=${LOADLAB_INFLUXDB_LOCAL_URL:-${LOADLAB_INFLUXDB_V1_URL:-http://127.0.0.1:8086/k6}}
    # KEY=VALUE lines (the -o argument, and K6_INFLUXDB_* for the v2 API), exported without eval.
    picked=$(node --import tsx stack/native/influx-target.ts "$influx_url")
    while IFS='=' read -r key value; do
      [[ -n $key ]] && export "$key=$value"
    done <<<"$picked"
    output=$LT_STREAM_OUTPUT
    if [[ $LT_STREAM_API == v2 ]]; then
      pick_v2_engine
    else
      # A container's 127.0.0.1 is the container itself, so never the container engine here: a real
      # k6 on PATH if there is one (run-k6.sh's first choice; k6's v1 output is built in), else the runner.
      if [[ -z ${LT_ENGINE:-} ]] && ! command -v k6 >/dev/null 2>&1; then export LT_ENGINE=node; fi
      if [[ ${LT_ENGINE:-} == node ]]; then engine_line="the Node runner"; else engine_line="k6 from PATH"; fi
    fi
    ;;
  cloud)
    node --import tsx scripts/require-env.ts K6_INFLUXDB_ADDR K6_INFLUXDB_ORGANIZATION K6_INFLUXDB_BUCKET \
      K6_INFLUXDB_TOKEN
    # xk6-output-influxdb reads the address, organization, bucket and token from these variables.
    output=xk6-influxdb
    pick_v2_engine
    ;;
esac

testid="$(date -u +%Y%m%dT%H%M%SZ)-$(basename "$scenario")"
# The URL may carry a password (http://user:pass@host/db): say where, never the secret.
shown_output=$(printf '%s' "$output" | sed -E 's#(://[^:/@]*):[^@]*@#\1:***@#')
echo "stack: streaming $scenario ($profile) with testid=$testid to $shown_output; engine: $engine_line"
npm run --silent build:k6
LT_PROFILE=$profile exec scripts/run-k6.sh "dist/k6/$scenario.js" --tag "testid=$testid" -o "$output" "${@:4}"
