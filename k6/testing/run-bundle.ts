// Test support for end-to-end runs of suite bundles: a real sandbox on a free loopback port, and one
// bundle run on the Node runner or on the reference k6, in a fresh folder that has results/, with the
// summary-latest.json the run wrote.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SummaryData } from '@loadlab/k6-format/summary';
import { runLoadlab, type RunResult } from '../../devkit/loadlab-run.js';
import { createSandboxApp, listen, type SandboxConfig, type StartedServer } from '@loadlab/services';
import { realK6 } from '../../devkit/real-k6.js';

export const TEST_CREDENTIALS = { DEMO_EMAIL: 'suite-e2e@loadlab.local', DEMO_PASSWORD: 'suite-e2e-secret' };

export interface BundleRun extends RunResult {
  summary?: SummaryData;
}

/** The sandbox with the test credentials; faults as given (off by default). */
export function startTestSandbox(
  faults: SandboxConfig['faults'] = { enabled: false, latencyMs: 0, errorRate: 0 },
): Promise<StartedServer> {
  return listen(
    createSandboxApp({
      demoEmail: TEST_CREDENTIALS.DEMO_EMAIL,
      demoPassword: TEST_CREDENTIALS.DEMO_PASSWORD,
      tokenSecret: 'suite-e2e',
      tokenTtlSeconds: 600,
      faults,
    }),
    0,
    '127.0.0.1',
  );
}

/**
 * Runs `bundle` (a path) with the Node runner, or with the k6 binary at `k6Path` (the harness runs
 * `k6` from PATH, so its folder goes first), quietly, with the test credentials in the environment.
 */
export async function runBundle(
  engine: { kind: 'node' } | { kind: 'k6'; path: string },
  bundle: string,
  args: string[],
  env: Record<string, string>,
): Promise<BundleRun> {
  const cwd = mkdtempSync(join(tmpdir(), 'loadlab-bundle-run-'));
  mkdirSync(join(cwd, 'results'));
  const result = await runLoadlab([bundle, ...args, '-q'], {
    engine: engine.kind,
    cwd,
    timeoutMs: 120_000,
    env: {
      ...TEST_CREDENTIALS,
      ...env,
      ...(engine.kind === 'k6' ? { PATH: `${dirname(engine.path)}:${process.env.PATH ?? ''}` } : {}),
    },
  });
  const file = join(cwd, 'results/summary-latest.json');
  const summary = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SummaryData) : undefined;
  // Tests write only into temporary folders they remove.
  rmSync(cwd, { recursive: true, force: true });
  return summary ? { ...result, summary } : result;
}

export type EngineKind = 'node' | 'k6';
export type BundleRunner = (
  bundle: string,
  args: string[],
  env: Record<string, string>,
) => Promise<BundleRun>;

/**
 * One mocha `describe` per engine, the Node runner and the reference k6 (../shared/tools/k6 or
 * REAL_K6), each handed a runner for bundles; the k6 one skips with one line when there is none.
 */
export function describeOnBothEngines(body: (run: BundleRunner, kind: EngineKind) => void): void {
  const k6 = realK6();
  for (const kind of ['node', 'k6'] as const) {
    describe(kind === 'node' ? 'Node runner' : 'real k6', () => {
      before(function () {
        if (kind === 'k6' && !k6) {
          console.warn('      skipped: no reference k6 (../shared/tools/k6 or REAL_K6)');
          this.skip();
        }
      });
      body(
        (bundle, args, env) => runBundle(kind === 'node' ? { kind } : { kind, path: k6! }, bundle, args, env),
        kind,
      );
    });
  }
}
