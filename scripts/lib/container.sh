# shellcheck shell=bash
# Sourced by scripts/run-k6.sh and stack/compose.sh (bash 3.2 and later): what both need before a k6
# container runs, as the invoking user.

# k6 creates the files a run writes but never their folders (the Node runner does the same), and a
# bind-mounted folder that does not exist yet is made by the container engine, owned by root, where k6
# running as the user then cannot write. So the results folders are made here first.
make_results_dirs() {
  local dir
  for dir in results "${LT_RESULTS_DIR:-}" "$(dirname -- "${LT_RUN_SUMMARY:-.}")" \
    "$(dirname -- "${K6_WEB_DASHBOARD_EXPORT:-.}")"; do
    [[ -z $dir ]] || mkdir -p -- "$dir"
  done
}

# How a container reaches the services on this machine, which listen on 127.0.0.1 by default:
#   host     a native Linux engine (a Linux laptop, GitHub's ubuntu-latest): `--network host`, so the
#            container's 127.0.0.1 is the host's loopback. host.docker.internal would be the docker0
#            bridge address there, where nothing listens.
#   gateway  Docker Desktop (macOS, Windows, Linux): its VM has no such host network, but
#            host.docker.internal reaches the host's loopback.
# LOADLAB_CONTAINER_NETWORK=host|gateway overrides the guess (e.g. rootless engines).
container_network() {
  case ${LOADLAB_CONTAINER_NETWORK:-auto} in
    host | gateway)
      echo "$LOADLAB_CONTAINER_NETWORK"
      return 0
      ;;
    auto) ;;
    *)
      echo "LOADLAB_CONTAINER_NETWORK must be host, gateway or auto, got \"$LOADLAB_CONTAINER_NETWORK\"" >&2
      return 2
      ;;
  esac
  local os
  os=$(docker info --format '{{.OperatingSystem}}' 2>/dev/null || true)
  if [[ $(uname -s) == Linux && $os != *"Docker Desktop"* ]]; then echo host; else echo gateway; fi
}

# A URL on this machine as the container must call it (unchanged on the host network).
url_for_container() { # network, url
  local url=$2
  if [[ $1 == gateway ]]; then
    url=${url/localhost/host.docker.internal}
    url=${url/127.0.0.1/host.docker.internal}
  fi
  echo "$url"
}

# The versions pinned in stack/versions.env as shell variables (K6_VERSION, XK6_VERSION,
# XK6_OUTPUT_INFLUXDB_VERSION), not exported: compose.sh exports them for compose's interpolation.
load_versions() { # repository root
  local name value pin='^[A-Z0-9_]+$'
  while IFS='=' read -r name value || [[ -n $name ]]; do
    if [[ $name =~ $pin ]]; then printf -v "$name" '%s' "$value"; fi
  done <"$1/stack/versions.env"
}
