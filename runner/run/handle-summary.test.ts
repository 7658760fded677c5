// handleSummary bounded as k6 bounds it: k6 gives the call 2 minutes (getTimeoutFor, which no option
// changes) and then logs the interrupted call and 'failed to handle the end-of-test summary' with
// its timeout error, writes nothing (neither its own summary nor --summary-export) and exits as it
// would have. Measured on k6 v1.3.0 with a handleSummary that loops or sleeps 200 s: at 120.2 s,
//   level=error msg="context canceled at handleSummary (file:///…/script.js:3:111(13))"
//   level=error msg="failed to handle the end-of-test summary" error="handleSummary() execution timed out after 120 seconds"
// and exit 0. Two minutes is too long for a test: the bound is injected here, the same code path.
import assert from 'node:assert/strict';
import type { MetricsEngine, SummaryData } from '../metrics/index.js';
import type { RunFlags } from '../options/run-flags.js';
import type { TestConfig } from '../options/options.js';
import type { Vu } from '../host/hosted-vu.js';
import { HANDLE_SUMMARY_TIMEOUT_MS, writeSummary } from './handle-summary.js';
import { PhaseVu } from './phase.js';
import type { VuFactory } from './vu-factory.js';

/** VU 0 whose handleSummary never returns (a loop, a long sleep): what the bound must end. */
function stuckVu(): Vu & { ended: string[] } {
  const ended: string[] = [];
  return {
    ended,
    handleSummary: () => new Promise(() => {}),
    interrupt: () => void ended.push('interrupt'),
    close: () => {
      ended.push('close');
      return Promise.resolve();
    },
  } as unknown as Vu & { ended: string[] };
}

/** The phases of a run whose handleSummary gets `vu`, a VU 0 of its own as in k6 (the options' VU before it). */
function phasesGiving(vu: Vu): PhaseVu {
  const factory = { make: () => Object.assign(vu, { init: () => Promise.resolve({}) }) };
  return new PhaseVu(stuckVu(), factory as unknown as VuFactory, {});
}

async function summaryOf(vu: Vu | PhaseVu, timeoutMs: number) {
  const lines: string[] = [];
  const written: string[] = [];
  const config = { summaryMode: 'compact', summaryExport: 'export.json' } as TestConfig;
  await writeSummary(
    vu instanceof PhaseVu ? vu : phasesGiving(vu),
    {} as SummaryData,
    {} as MetricsEngine,
    config,
    {} as RunFlags,
    { out: (t) => written.push(t), err: (t) => written.push(t), isTTY: false },
    (level, msg, fields) => lines.push(`${level} ${msg}${fields?.error ? ` error=${fields.error}` : ''}`),
    timeoutMs,
  );
  return { lines, written };
}

describe('runner/run handleSummary: bounded as k6 bounds it', () => {
  it("k6's bound is 2 minutes", () => {
    assert.equal(HANDLE_SUMMARY_TIMEOUT_MS, 120_000);
  });

  it("a handleSummary past its bound: k6's two lines, its VU ended, nothing written", async () => {
    const vu = stuckVu();
    const { lines, written } = await summaryOf(vu, 1000);
    assert.deepEqual(lines, [
      'error context canceled',
      'error failed to handle the end-of-test summary error=handleSummary() execution timed out after 1 seconds',
    ]);
    assert.deepEqual(written, []);
    assert.deepEqual(vu.ended, ['interrupt', 'close']);
  });

  it('after a teardown cut short, the fresh VU that runs handleSummary is the one ended at the bound', async () => {
    const teardownVu = stuckVu();
    const summaryVu = stuckVu();
    const factory = { make: () => Object.assign(summaryVu, { init: () => Promise.resolve({}) }) };
    const phases = new PhaseVu(teardownVu, factory as unknown as VuFactory, {});
    phases.abandon();
    const { lines } = await summaryOf(phases, 1000);
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.deepEqual(
      [teardownVu.ended, summaryVu.ended],
      [
        ['interrupt', 'close'],
        ['interrupt', 'close'],
      ],
    );
  });
});
