#!/usr/bin/env bash
# Prepares a fresh machine for the tests: the system packages they use (Chromium for the browser scenario
# and the report checks, InfluxDB 1.x and Prometheus for the observability tests, PostgreSQL for the
# clinic's database store, shellcheck and yamllint for the scripts and the stack, a C++ toolchain for
# the runner's native addon), then the npm packages from the lockfile.
# Debian 12 (what CI and the development machines run) by these package names; Ubuntu 22.04/24.04 by
# the same names except Chromium, which Ubuntu ships only as a snap.
set -euo pipefail
cd "$(dirname "$0")/.."

# g++, make and python3 build the runner's VU host addon (runner/host/native) from source with
# node-gyp.
debian_packages=(chromium influxdb influxdb-client postgresql prometheus shellcheck yamllint g++ make python3)
ubuntu_packages=(influxdb influxdb-client postgresql prometheus shellcheck yamllint g++ make python3)

# LOADLAB_OS_RELEASE names another os-release file (the tests read this script as Ubuntu would).
os_release=${LOADLAB_OS_RELEASE:-/etc/os-release}
distribution=unknown
if [[ -r $os_release ]]; then
  distribution=$(sed -n 's/^ID=//p' "$os_release" | tr -d '"')
fi

packages=()
case $distribution in
  debian) packages=("${debian_packages[@]}") ;;
  ubuntu)
    packages=("${ubuntu_packages[@]}")
    # Ubuntu's chromium package is a shim that installs the snap, which containers and CI cannot run:
    # use a Chrome or Chromium that is already there (GitHub's runners have one).
    browser=
    for name in chromium chromium-browser google-chrome-stable google-chrome; do
      path=$(command -v "$name" 2>/dev/null || true)
      if [[ -n $path && $(readlink -f "$path") != /snap/* ]]; then
        browser=$path
        break
      fi
    done
    if [[ -z $browser ]]; then
      echo "setup: no Chromium or Chrome outside snap found; install Google Chrome, then export K6_BROWSER_EXECUTABLE_PATH=<its path> (browser tests need it)" >&2
    elif [[ $browser != /usr/bin/chromium ]]; then
      echo "setup: browser tests use $browser: export K6_BROWSER_EXECUTABLE_PATH=$browser"
    fi
    ;;
  *) echo "setup: $distribution is neither Debian nor Ubuntu; install ${debian_packages[*]} by hand" >&2 ;;
esac

missing=()
for pkg in ${packages[@]+"${packages[@]}"}; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done

if ((${#missing[@]} > 0)); then
  if ! command -v apt-get >/dev/null; then
    echo "setup: missing system packages (${missing[*]}) and no apt-get here; install them by hand" >&2
  else
    sudo=()
    [[ $(id -u) -eq 0 ]] || sudo=(sudo)
    ${sudo[@]+"${sudo[@]}"} apt-get update -qq
    # A name this distribution's archive lacks (a virtual name counts as lacking) would stop apt-get
    # before it installs anything. Debian's names are this project's own and must all be there; on
    # Ubuntu, whose archive the project cannot check, a missing one is named and the rest installed.
    installable=()
    lacking=()
    for pkg in ${missing[@]+"${missing[@]}"}; do
      # Read the whole record before matching: with pipefail, grep -q closing the pipe early makes
      # apt-cache die of SIGPIPE on a long record, and the name reads as missing.
      record=$(apt-cache show --no-all-versions "$pkg" 2>/dev/null || true)
      if grep -qx "Package: $pkg" <<<"$record"; then
        installable+=("$pkg")
      else
        lacking+=("$pkg")
      fi
    done
    if ((${#lacking[@]} > 0)); then
      if [[ $distribution == debian ]]; then
        echo "setup: Debian's archive here has no ${lacking[*]}; check the apt sources (/etc/apt/sources.list*)" >&2
        exit 1
      fi
      echo "setup: $distribution's archive has no ${lacking[*]}; the tests that need them skip or fail until you install them by hand" >&2
    fi
    if ((${#installable[@]} > 0)); then
      echo "setup: installing ${installable[*]}"
      DEBIAN_FRONTEND=noninteractive ${sudo[@]+"${sudo[@]}"} apt-get install -y -qq --no-install-recommends ${installable[@]+"${installable[@]}"} >/dev/null
    fi
  fi
fi

npm ci --no-fund --no-audit

# The runner's VU host addon, built now for this Node rather than by the first run (a few seconds);
# where it cannot be, runs say so and give each VU an isolate of its own.
node --import tsx --input-type=module -e \
  "import { loadVuHostAddon } from './runner/host/native/vu-host-addon.ts'; await loadVuHostAddon();" ||
  echo "setup: the runner's VU host addon could not be built (see above); runs will say so and use an isolate per VU" >&2
