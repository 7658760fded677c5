// The layers of docs/architecture.md, checked in `npm test` (npm run lint:deps, over every folder). Imports
// point down:
//   1. k6-format: k6's formats (samples, statistics, summary data, thresholds, durations, NDJSON lines,
//      exit codes, Go wording, the Chromium launch recipe)
//   2. runner and services, side by side, never importing each other; inside the runner, RUNNER_ORDER
//   3. the lab: the suite (k6), report, stack, dashboards, scripts, bench, bin, .github, fixtures
// devkit (process, real-k6, PostgreSQL, Chromium helpers) serves tests, benchmarks and the lab's dev
// commands; nothing the packages ship imports it.
// Test code is what the test tiers run (package.json's test:unit and test:e2e) and what only they import
// or start (devkit/test-code.cjs), not a file name. devkit/dependency-rules.e2e.test.ts plants one
// violation of every rule below and sees `npm run lint:deps` fail on each.
const { testCode } = require('./devkit/test-code.cjs');

/**
 * Imports the checker cannot see, made through computed paths, named here so the files they run count as
 * entry points (never test code, never orphans); the rules test holds each list to its file.
 */
const COMPUTED_IMPORTS = {
  // labModule('runner/index'), labModule('report/live/index'): compiled or from the sources.
  'bin/loadlab.js': ['runner/index.ts', 'report/live/index.ts'],
  // ENTRY_DIRS: every script a user can run is bundled from these folders.
  'k6/build.ts': ['k6/scenarios/', 'k6/journeys/'],
  // shim('entry'), shim('globals') and the node:* stand-ins esbuild bundles for a VU isolate.
  'runner/vu/isolate-code.ts': ['runner/vu/isolate/'],
};

const escapeRegExp = (path) => path.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
const TEST = `^(${testCode(__dirname, Object.values(COMPUTED_IMPORTS).flat()).map(escapeRegExp).join('|')})$`;
const LAB = '^(k6|report|stack|dashboards|scripts|bench|bin|fixtures|\\.github)/';

/**
 * The runner's folders from the top (its entry points) down, [name, path]: a folder imports only those
 * below it. The command line reads flags; the run drives its phases; options give the flags meaning;
 * executors schedule; outputs and the end-of-test text take what the run measured; the host side of a
 * VU starts the worker (vu/), which loads the script and the k6 modules on the event loop; metrics and
 * the bridge are what both threads share.
 */
const RUNNER_ORDER = [
  ['entry', '(index|main|inspect)\\.ts$|bin/'],
  ['cli', 'cli/'],
  ['run', 'run/'],
  ['options', 'options/'],
  ['executors', 'executors/'],
  ['outputs', 'outputs/|summary/'],
  ['host', 'host/'],
  ['vu', 'vu/'],
  ['script', 'script/'],
  ['modules', 'modules/'],
  ['event-loop', 'event-loop/'],
  ['metrics', 'metrics/'],
  ['bridge', 'bridge/'],
  ['contracts', 'contracts\\.ts$'],
];

const runnerOrder = RUNNER_ORDER.slice(1).map(([name, path], i) => {
  const above = RUNNER_ORDER.slice(0, i + 1).map(([, p]) => p);
  return {
    name: `runner-order-${name}`,
    severity: 'error',
    comment: `In the runner (RUNNER_ORDER), ${path} imports nothing above it: ${above.join(', ')}.`,
    from: { path: `^runner/(${path})`, pathNot: TEST },
    to: { path: `^runner/(${above.join('|')})` },
  };
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle hides which side is the lower layer.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment:
        'A module nothing imports and that imports nothing is dead, unless something else runs it: scripts an engine is given (fixtures/), the containers healthcheck, the page script the sandbox serves, the tools configs, what a computed import names.',
      from: {
        orphan: true,
        pathNot: [
          '(^|/)fixtures/',
          '^stack/healthcheck\\.mjs$',
          '^services/sandbox/web/app\\.js$',
          '^(eslint\\.config\\.js|\\.dependency-cruiser\\.cjs)$',
          '\\.d\\.ts$',
          // what a computed import runs (an esbuild entry or alias, a labModule)
          ...Object.values(COMPUTED_IMPORTS)
            .flat()
            .map((p) => `^${escapeRegExp(p)}`),
        ],
      },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import the checker cannot resolve is one no rule can judge (and may fail at run time).',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'k6-format-is-the-bottom',
      severity: 'error',
      comment: 'k6-format depends on nothing of the project but itself.',
      from: { path: '^k6-format/' },
      to: {
        path: '^(runner|services|devkit|k6|report|stack|dashboards|scripts|bench|bin|fixtures|\\.github)/',
      },
    },
    {
      name: 'runner-imports-no-lab-or-service',
      severity: 'error',
      comment: 'The runner is an engine: it knows k6-format and nothing above or beside it.',
      from: { path: '^runner/' },
      to: { path: `^(services/)|${LAB}` },
    },
    ...runnerOrder,
    {
      name: 'runner-host-runs-no-worker-code',
      severity: 'error',
      comment:
        'The main thread (runner/host/) meets the VU code only through the bridge: it loads no k6 module, event loop or VU code, only the bundles it starts (vu/worker-code.ts, vu/isolate-code.ts) and the types of its start message.',
      from: { path: '^runner/host/', pathNot: TEST },
      to: {
        path: '^runner/(modules|event-loop|vu)/',
        pathNot: '^runner/vu/(worker|isolate)-code\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'runner-host-knows-the-worker-by-type-only',
      severity: 'error',
      comment:
        'Types of the worker (its start message) are all the host may name of runner/vu/ besides the bundle.',
      from: { path: '^runner/host/', pathNot: TEST },
      to: { path: '^runner/(modules|event-loop)/' },
    },
    {
      name: 'runner-worker-side-never-imports-host',
      severity: 'error',
      comment:
        'What runs in a VU worker (vu/, modules/, event-loop/, script/) reaches the main thread only through the bridge.',
      from: { path: '^runner/(vu|modules|event-loop|script)/', pathNot: TEST },
      to: { path: '^runner/host/' },
    },
    {
      name: 'services-import-no-engine-or-lab',
      severity: 'error',
      comment: 'The services image carries only the services: no runner, no lab code.',
      from: { path: '^services/' },
      to: { path: `^(runner/)|${LAB}` },
    },
    {
      name: 'devkit-stands-alone',
      severity: 'error',
      comment:
        'The dev kit serves every layer, so it uses only k6-format (the Chromium launch recipe included, k6-format/browser-launch.ts).',
      from: { path: '^devkit/' },
      to: { path: `^(runner|services)/|${LAB}` },
    },
    {
      name: 'shipped-code-uses-no-devkit',
      severity: 'error',
      comment: 'Only tests, benchmarks and the lab use the dev kit.',
      from: { path: '^(k6-format|runner|services)/', pathNot: TEST },
      to: { path: '^devkit/' },
    },
    {
      name: 'the-lab-uses-the-runner-api',
      severity: 'error',
      comment:
        "Shipped lab code reaches the runner through @loadlab/runner (runner/index.ts); tests and benchmarks may look inside. The lab's bin also makes the runner's Node version check and turns on Node's compile cache as the runner's bin does (plain JavaScript, run before any loader).",
      from: { path: '^(k6|report|stack|dashboards|scripts|bin|fixtures|\\.github)/', pathNot: TEST },
      to: { path: '^runner/', pathNot: '^runner/(index\\.ts|bin/(node-version|compile-cache)\\.js)$' },
    },
    {
      name: 'the-lab-uses-the-services-api',
      severity: 'error',
      comment:
        'Shipped lab code reaches the services through @loadlab/services (services/index.ts, services/start-and-stop.ts).',
      from: { path: '^(k6|report|stack|dashboards|scripts|bin|fixtures|\\.github)/', pathNot: TEST },
      to: { path: '^services/', pathNot: '^services/(index|start-and-stop)\\.ts$' },
    },
    {
      name: 'entry-points-are-not-libraries',
      severity: 'error',
      comment: 'A script behind an npm command runs; its reusable part lives in a module others import.',
      from: { pathNot: '^scripts/[^/]+\\.test\\.ts$' },
      to: { path: '^scripts/[^/]+\\.ts$' },
    },
    {
      name: 'a-script-test-imports-its-own-script',
      severity: 'error',
      comment:
        'scripts/x.test.ts (or x.e2e.test.ts) may call the functions of scripts/x.ts, and no other entry point.',
      from: { path: '^scripts/([^/.]+)(\\.e2e)?\\.test\\.ts$' },
      to: { path: '^scripts/[^/]+\\.ts$', pathNot: ['^scripts/$1\\.ts$', '\\.test\\.ts$'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Packages' `exports` maps with their `import` conditions, as Node resolves them.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    exclude: { path: '(^|/)(node_modules|dist|results)/' },
  },
};
// For the rules test; not enumerable, so dependency-cruiser's own config check does not see them.
Object.defineProperties(module.exports, {
  COMPUTED_IMPORTS: { value: COMPUTED_IMPORTS },
  RUNNER_ORDER: { value: RUNNER_ORDER },
});
