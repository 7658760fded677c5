#!/usr/bin/env bash
# Runs one k6 script on the best engine here: a real k6 (>= 1.0) on PATH, else k6 in a running
# container engine, else the project's Node runner. LT_ENGINE=k6|docker|node forces one.
# LT_K6_BINARY names the k6 to run (default: `k6` from PATH), e.g. one built with xk6 extensions.
# Usage: scripts/run-k6.sh <script.js|.ts> [k6 run flags...]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/container.sh
. scripts/lib/container.sh

die() {
  echo "run-k6: $*" >&2
  exit 2
}

[[ $# -ge 1 ]] || die "usage: scripts/run-k6.sh <script> [k6 run flags...]"
script=$1
shift
[[ -f $script ]] || die "no such script: $script (bundles come from: npm run build:k6)"

# A git-ignored .env supplies credentials; variables already set win. LT_ENV_FILE names another file.
env_file=${LT_ENV_FILE:-.env}
# The default .env is optional; a file named on purpose that is not there is a mistake worth a line.
[[ -z ${LT_ENV_FILE:-} || -f $env_file ]] || die "LT_ENV_FILE=$env_file: no such file"
if [[ -f $env_file ]]; then
  # Patterns in variables: bash 3.2 (macOS) cannot parse a literal `(` after =~.
  assignment='^[[:space:]]*([A-Za-z_][A-Za-z0-9_]*)=(.*)$'
  double_quoted='^"(.*)"$'
  single_quoted="^'(.*)'$"
  while IFS= read -r line || [[ -n $line ]]; do
    [[ $line =~ $assignment ]] || continue
    name=${BASH_REMATCH[1]}
    value=${BASH_REMATCH[2]}
    # One pair of surrounding quotes, double or single, is syntax, not value.
    if [[ $value =~ $double_quoted || $value =~ $single_quoted ]]; then value=${BASH_REMATCH[1]}; fi
    [[ -n ${!name+set} ]] || export "$name=$value"
  done <"$env_file"
fi

if [[ ${LT_DASHBOARD:-} == true ]]; then
  export K6_WEB_DASHBOARD=true
  export K6_WEB_DASHBOARD_EXPORT=${K6_WEB_DASHBOARD_EXPORT:-results/report.html}
fi
make_results_dirs

needs_browser=false
grep -q 'k6/browser' "$script" && needs_browser=true

k6_bin=${LT_K6_BINARY:-k6}
k6_usable() {
  command -v "$k6_bin" >/dev/null 2>&1 || return 1
  local major
  major=$("$k6_bin" version 2>/dev/null | sed -n 's/^k6 v\([0-9][0-9]*\)\..*/\1/p' | head -n 1)
  [[ -n $major && $major -ge 1 ]]
}

# The engine line ends with "; version <v>": the report reads it from the run's log, or from the
# <summary>.engine file the suite's handleSummary writes from LT_ENGINE_LINE (a run without a kept log,
# such as test:ci), and names the engine on every report (the runner's numbers and k6's differ).
announce_engine() {
  LT_ENGINE_LINE="run-k6: engine $1"
  export LT_ENGINE_LINE
  echo "$LT_ENGINE_LINE" >&2
}

loadlab_version() {
  local v
  # The runner's own version (its package, runner/package.json), as `loadlab version` prints it.
  v=$(sed -n 's/^  "version": "\([^"]*\)",*$/\1/p' runner/package.json | head -n 1)
  echo "${v:-unknown}"
}

# Real k6's browser as the Node runner launches Chromium (k6-format/browser-launch.ts): the
# Debian path when none of the names k6 looks up is on PATH, and no-sandbox as root (CI, containers),
# where Chromium refuses to start without it and every browser iteration would throw. A K6_BROWSER_*
# the user set is theirs and is never replaced.
browser_env_for_k6() {
  local name candidate on_path=
  if [[ -z ${K6_BROWSER_EXECUTABLE_PATH:-} ]]; then
    for name in chromium chromium-browser google-chrome google-chrome-stable; do
      if command -v "$name" >/dev/null 2>&1; then on_path=true; fi
    done
    if [[ -z $on_path ]]; then
      for candidate in /usr/bin/chromium /usr/lib/chromium/chromium /snap/bin/chromium; do
        if [[ -x $candidate ]]; then
          export K6_BROWSER_EXECUTABLE_PATH=$candidate
          break
        fi
      done
    fi
  fi
  if [[ -z ${K6_BROWSER_ARGS+set} && $(id -u) -eq 0 ]]; then export K6_BROWSER_ARGS=no-sandbox; fi
  return 0
}

docker_usable() {
  command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1
}

engine=${LT_ENGINE:-auto}
reason="LT_ENGINE=$engine"
if [[ $engine == auto ]]; then
  if k6_usable; then
    engine=k6 reason="k6 $("$k6_bin" version | head -n 1 | cut -d' ' -f2) on PATH"
  elif docker_usable && [[ $needs_browser == false ]]; then
    engine=docker reason="no k6 on PATH, container engine running"
  else
    engine=node reason="no k6 on PATH and no usable container engine"
  fi
fi

case $engine in
k6)
  k6_usable || die "LT_ENGINE=k6 but no k6 >= 1.0 on PATH"
  [[ $needs_browser == false ]] || browser_env_for_k6
  announce_engine "k6 ($reason); version k6 $("$k6_bin" version | head -n 1 | cut -d' ' -f2)"
  exec "$k6_bin" run "$script" "$@"
  ;;
docker)
  if ! docker_usable; then
    # Exit 3 for this cause in every command (stack/compose.sh, stack:doctor), 2 is bad usage.
    echo "run-k6: LT_ENGINE=docker but no container engine answers ('docker info' failed); start Docker, or leave LT_ENGINE unset" >&2
    exit 3
  fi
  network=$(container_network) || exit 2
  load_versions .
  # Only when asked for (LT_ENGINE=docker): grafana/k6's -with-browser image carries Chromium and sets
  # K6_BROWSER_ARGS=no-sandbox itself. The automatic choice keeps browser scripts native, as the spec says.
  image="grafana/k6:${K6_IMAGE_TAG:-$K6_VERSION}"
  [[ $needs_browser == false ]] || image="$image-with-browser"
  # The host's services as the container calls them: the sandbox and both clinic instances (their
  # defaults are the scripts' own).
  BASE_URL=$(url_for_container "$network" "${BASE_URL:-http://localhost:5050}")
  CLINIC_BASE_URL=$(url_for_container "$network" "${CLINIC_BASE_URL:-http://localhost:9966/petclinic/api}")
  CLINIC_SECURE_BASE_URL=$(url_for_container "$network" "${CLINIC_SECURE_BASE_URL:-http://localhost:9967/petclinic/api}")
  export BASE_URL CLINIC_BASE_URL CLINIC_SECURE_BASE_URL
  net_args=(--network host)
  how="the host network"
  if [[ $network == gateway ]]; then
    net_args=(--add-host=host.docker.internal:host-gateway)
    how="Docker Desktop's host gateway"
    # The live dashboard listens on every interface in the container; publish it on the host.
    [[ ${K6_WEB_DASHBOARD:-} != true ]] || net_args+=(-p 5665:5665)
  fi
  announce_engine "docker ($reason), $image; the container calls BASE_URL=$BASE_URL through $how; version $image"
  env_args=()
  while IFS='=' read -r name _; do
    env_args+=(-e "$name")
  done < <(env | grep -E '^(LT_|K6_|BASE_URL=|DEMO_|ADMIN_|CLINIC_|CI=)' || true)
  # As the invoking uid, which has no passwd entry in grafana/k6's images: the engine would give it
  # HOME=/ (runc takes HOME from passwd only when unset), where Chromium cannot write its ~/.cache and
  # ~/.config; the image's /home/k6 is uid 12345's. /tmp is writable by every uid.
  # ${a[@]+"${a[@]}"}: bash 3.2 (macOS) with set -u calls an empty array unbound.
  exec docker run --rm -i "${net_args[@]}" -u "$(id -u):$(id -g)" -e HOME=/tmp -v "$PWD:/work" -w /work \
    ${env_args[@]+"${env_args[@]}"} "$image" run "$script" "$@"
  ;;
node)
  announce_engine "node ($reason); version loadlab $(loadlab_version)"
  exec node bin/loadlab.js run "$script" "$@"
  ;;
*)
  die "LT_ENGINE must be auto, k6, docker or node, got \"$engine\""
  ;;
esac
