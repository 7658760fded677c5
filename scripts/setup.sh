#!/usr/bin/env bash
# Prepares a fresh Debian machine: the system packages the tests use (Chromium for browser
# scenarios and report checks, InfluxDB 1.x and Prometheus for the observability tests,
# shellcheck and yamllint for the stack), then the npm packages from the lockfile.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(chromium influxdb influxdb-client prometheus shellcheck yamllint)
missing=()
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done

if ((${#missing[@]} > 0)); then
  if ! command -v apt-get >/dev/null; then
    echo "setup: missing system packages (${missing[*]}) and no apt-get here; install them by hand" >&2
  else
    sudo=()
    [[ $(id -u) -eq 0 ]] || sudo=(sudo)
    echo "setup: installing ${missing[*]}"
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi

npm ci --no-fund --no-audit
