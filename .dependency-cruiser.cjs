// The layers of docs/architecture.md, checked in `npm test` (npm run lint:deps). Imports point down:
//   1. k6-format: k6's formats (samples, summary data, threshold grammar, percentiles, durations, Go wording)
//   2. runner and services, side by side, never importing each other
//   3. the lab: the suite (k6), report, stack, dashboards, scripts, bench, bin
// devkit (process, real-k6, PostgreSQL, Chromium helpers) serves tests, benchmarks and the lab's dev
// commands; nothing the packages ship imports it.
// Test code: test files and the helpers only tests use (named test-*.ts or kept in e2e/, testing/, fixtures/).
const TEST = '\\.test\\.ts$|/fixtures/|/test-[^/]+\\.ts$|/testing/|/e2e/';
const LAB = '^(k6|report|stack|dashboards|scripts|bench|bin|fixtures|\\.github)/';

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
      name: 'k6-format-is-the-bottom',
      severity: 'error',
      comment: 'k6-format depends on nothing of the project but itself.',
      from: { path: '^k6-format/' },
      to: { path: '^(runner|services|devkit|k6|report|stack|dashboards|scripts|bench|bin|fixtures)/' },
    },
    {
      name: 'runner-imports-no-lab-or-service',
      severity: 'error',
      comment: 'The runner is an engine: it knows k6-format and nothing above or beside it.',
      from: { path: '^runner/' },
      to: { path: `^(services/)|${LAB}` },
    },
    {
      name: 'runner-bridge-is-shared-ground',
      severity: 'error',
      comment:
        'runner/bridge/ holds what both threads share (messages, samples, the clock, Go HTTP words): it depends on no thread.',
      from: { path: '^runner/bridge/' },
      to: { path: '^runner/', pathNot: '^runner/(bridge/|types\\.ts$)' },
    },
    {
      name: 'runner-host-runs-no-worker-code',
      severity: 'error',
      comment:
        'The main thread (runner/host/) meets the worker only through the bridge: it loads no k6 module, event loop or worker code, only the worker bundle it starts (vu/worker-code.ts) and the types of its start message.',
      from: { path: '^runner/host/', pathNot: TEST },
      to: {
        path: '^runner/(modules|event-loop|vu)/',
        pathNot: '^runner/vu/worker-code\\.ts$',
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
      name: 'runner-modules-know-no-run',
      severity: 'error',
      comment:
        'k6 modules run inside a VU: they know the module API, the bridge and the event loop, not the run, its options or CLI.',
      from: { path: '^runner/(modules|event-loop)/', pathNot: TEST },
      to: { path: '^runner/(vu|run|cli|options|outputs|script)/' },
    },
    {
      name: 'runner-metrics-engine-knows-no-summary-text',
      severity: 'error',
      comment:
        'runner/metrics/ counts and judges samples; the end-of-test text (runner/summary/) reads its data, never the other way.',
      from: { path: '^runner/metrics/', pathNot: TEST },
      to: { path: '^runner/summary/' },
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
        "The dev kit serves every layer, so it may only use k6-format, and the runner's Chromium launch flags (a leaf module: node:fs, k6-format) so tests drive the browser k6/browser drives.",
      from: { path: '^devkit/' },
      to: { path: `^(runner|services)/|${LAB}`, pathNot: '^runner/modules/browser/launch\\.ts$' },
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
        "Shipped lab code reaches the runner through @loadlab/runner (runner/index.ts); tests and benchmarks may look inside. The lab's bin also makes the runner's Node version check (plain JavaScript, run before any loader).",
      from: { path: '^(k6|report|stack|dashboards|scripts|bin)/', pathNot: TEST },
      to: { path: '^runner/', pathNot: '^runner/(index\\.ts|bin/node-version\\.js)$' },
    },
    {
      name: 'the-lab-uses-the-services-api',
      severity: 'error',
      comment:
        'Shipped lab code reaches the services through @loadlab/services (services/index.ts, services/plumbing.ts).',
      from: { path: '^(k6|report|stack|dashboards|scripts|bin)/', pathNot: TEST },
      to: { path: '^services/', pathNot: '^services/(index|plumbing)\\.ts$' },
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
    exclude: { path: '^(node_modules|dist|results|fixtures/k6-reference/k6-)' },
  },
};
