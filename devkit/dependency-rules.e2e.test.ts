// Every import rule of .dependency-cruiser.cjs can fail: a throw-away tree with the project's config,
// tiers and tsconfig gets one planted violation of each rule, and `depcruise` must report each one (and
// exit non-zero), while test code that does the same, recognised by its tier, passes.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand, type CommandResult } from './command.js';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const require = createRequire(import.meta.url);
const config = require('../.dependency-cruiser.cjs') as {
  forbidden: { name: string }[];
  RUNNER_ORDER: [string, string][];
};

/** A file of the runner's level in RUNNER_ORDER, for a planted import between two levels. */
function levelFile(path: string): string {
  if (path.startsWith('(index')) return 'runner/index.ts';
  if (path.startsWith('contracts')) return 'runner/contracts.ts';
  return `runner/${path.split('|')[0]}planted.ts`;
}

/** Planted violations: the file, what it imports, and the rule (with its from and to) it must break. */
function plants(): { file: string; imports: string[]; typeOnly?: boolean }[] {
  const order = config.RUNNER_ORDER.map(([, path]) => levelFile(path));
  return [
    // Each runner level imports the one above it (runner-order-*), which is also the worker reaching
    // the host (vu -> host) and the bridge reaching metrics.
    ...order.slice(1).map((file, i) => ({ file, imports: [order[i]!] })),
    { file: 'runner/index.ts', imports: [] },
    { file: 'runner/host/thread.ts', imports: ['runner/modules/planted.ts'] },
    { file: 'runner/host/types-only.ts', imports: ['runner/event-loop/planted.ts'], typeOnly: true },
    // A file named like a test helper that no test imports is shipped: its devkit import is refused.
    { file: 'runner/metrics/test-something.ts', imports: ['devkit/kit.ts', 'report/page.ts'] },
    { file: 'services/a.ts', imports: ['services/b.ts', 'runner/index.ts'] },
    { file: 'services/b.ts', imports: ['services/a.ts'] },
    { file: 'devkit/kit.ts', imports: ['runner/index.ts'] },
    { file: 'k6-format/up.ts', imports: ['report/page.ts'] },
    { file: 'report/page.ts', imports: ['runner/metrics/planted.ts', 'scripts/tool.ts'] },
    { file: 'report/dead.ts', imports: [] },
    { file: 'report/broken.ts', imports: ['report/missing.ts'] },
    { file: 'stack/check.ts', imports: ['services/b.ts'] },
    { file: '.github/ci/step.ts', imports: ['runner/metrics/planted.ts'] },
    { file: 'fixtures/probe.ts', imports: ['runner/metrics/planted.ts'] },
    { file: 'scripts/tool.ts', imports: [] },
    { file: 'scripts/other.ts', imports: [] },
    { file: 'scripts/tool.test.ts', imports: ['scripts/tool.ts', 'scripts/other.ts'] },
    // Test code by its tier: a spec and a helper only it imports may look anywhere.
    {
      file: 'runner/host/looks.e2e.test.ts',
      imports: ['runner/host/helper.ts', 'runner/modules/planted.ts'],
    },
    { file: 'runner/host/helper.ts', imports: ['devkit/kit.ts', 'runner/vu/planted.ts'] },
  ];
}

/** The planted violations each rule must report, as depcruise prints them (`rule: from → to`). */
function expected(): string[] {
  const order = config.RUNNER_ORDER.map(([name, path]) => [name, levelFile(path)] as const);
  return [
    ...order.slice(1).map(([name, file], i) => `runner-order-${name}: ${file} → ${order[i]![1]}`),
    // depcruise prints the rest of a circle on the lines after.
    'no-circular: services/a.ts →',
    'no-orphans: report/dead.ts',
    'not-to-unresolvable: report/broken.ts → ./missing.js',
    'k6-format-is-the-bottom: k6-format/up.ts → report/page.ts',
    'runner-imports-no-lab-or-service: runner/metrics/test-something.ts → report/page.ts',
    'runner-host-runs-no-worker-code: runner/host/thread.ts → runner/modules/planted.ts',
    'runner-host-knows-the-worker-by-type-only: runner/host/types-only.ts → runner/event-loop/planted.ts',
    'runner-worker-side-never-imports-host: runner/vu/planted.ts → runner/host/planted.ts',
    'services-import-no-engine-or-lab: services/a.ts → runner/index.ts',
    'devkit-stands-alone: devkit/kit.ts → runner/index.ts',
    'shipped-code-uses-no-devkit: runner/metrics/test-something.ts → devkit/kit.ts',
    'the-lab-uses-the-runner-api: report/page.ts → runner/metrics/planted.ts',
    'the-lab-uses-the-runner-api: .github/ci/step.ts → runner/metrics/planted.ts',
    'the-lab-uses-the-runner-api: fixtures/probe.ts → runner/metrics/planted.ts',
    'the-lab-uses-the-services-api: stack/check.ts → services/b.ts',
    'entry-points-are-not-libraries: report/page.ts → scripts/tool.ts',
    'a-script-test-imports-its-own-script: scripts/tool.test.ts → scripts/other.ts',
  ];
}

function specifier(from: string, to: string): string {
  const path = posix.relative(posix.dirname(from), to).replace(/\.ts$/, '.js');
  return path.startsWith('.') ? path : `./${path}`;
}

describe('dependency rules: one planted violation of each fails lint:deps (e2e)', function () {
  this.timeout(120_000);
  let dir: string;
  let result: CommandResult;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loadlab-dependency-rules-'));
    for (const file of ['.dependency-cruiser.cjs', 'devkit/test-code.cjs', 'tsconfig.json', 'package.json']) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      copyFileSync(join(REPO, file), join(dir, file));
    }
    symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
    const files = new Map<string, string[]>();
    for (const plant of plants()) {
      const lines = plant.imports.map((to, i) =>
        plant.typeOnly
          ? `import type { T${i} } from '${specifier(plant.file, to)}';\nexport type U${i} = T${i};`
          : `import '${specifier(plant.file, to)}';`,
      );
      files.set(plant.file, [...(files.get(plant.file) ?? []), ...lines]);
    }
    for (const [file, lines] of files) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), `${lines.join('\n')}\nexport const planted = true;\n`);
    }
    const depcruise = join(REPO, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
    result = await runCommand(process.execPath, [depcruise, '--config', '.dependency-cruiser.cjs', '.'], {
      cwd: dir,
      timeoutMs: 100_000,
    });
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('fails, naming every planted violation', () => {
    assert.notEqual(result.code, 0, result.stdout);
    const reported = result.stdout
      .split('\n')
      .map((line) => /^\s*error (.+)$/.exec(line)?.[1]?.trim())
      .filter((line): line is string => line !== undefined);
    const missing = expected().filter((violation) => !reported.includes(violation));
    assert.deepEqual(
      missing,
      [],
      `not reported:\n${missing.join('\n')}\n\nreported:\n${reported.join('\n')}`,
    );
  });

  it('has a planted violation for every rule of the config', () => {
    const planted = new Set(expected().map((line) => line.slice(0, line.indexOf(':'))));
    assert.deepEqual(
      config.forbidden.map((rule) => rule.name).filter((name) => !planted.has(name)),
      [],
    );
  });

  it('lets test code, known by its tier, look anywhere', () => {
    for (const file of ['runner/host/looks.e2e.test.ts', 'runner/host/helper.ts'])
      assert.doesNotMatch(result.stdout, new RegExp(`error [^:]+: ${file.replace(/\./g, '\\.')} `));
  });
});
