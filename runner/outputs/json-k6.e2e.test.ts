// `--out json` written byte for byte as real k6 v1.3 writes it: the same script's lines on both
// engines are the same text but for each sample's time and measured durations, which are whole
// nanoseconds on both (the runner's were float noise: 0.7835789999999747 where k6 writes 2.102916). k6 encodes them with
// easyjson: tag keys in Go's order, `<`, `>`, `&`, U+2028 and control characters escaped as \u00XX,
// numbers in Go's 'g' format (1234567 is 1.234567e+06); the runner wrote JSON.stringify's text.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ndjsonPoints } from '@loadlab/k6-format/ndjson';
import { runLoadlab, startReferenceTarget } from '../../devkit/loadlab-run.js';
import { realK6OrSkip } from '../testing/log-lines.js';

const SCRIPT = String.raw`
import http from 'k6/http';
import { check, group } from 'k6';
import { Counter, Trend } from 'k6/metrics';
const big = new Counter('big_counter');
const sizes = new Trend('sizes');
export const options = {
  iterations: 1,
  tags: { zeta: 'z', alpha: 'a<&>' },
  thresholds: { 'http_req_duration{name:a&b,method:GET}': ['max>=0'], sizes: ['p(95)<1e30'] },
};
export default function () {
  group('g<1>', () => {
    http.get(__ENV.TARGET, { tags: { mid: 'm', Upper: 'U', name: 'a&b', ctl: 'x\by\u0001' } });
    check(1, { 'is <one> & "quoted"\u2028': (v) => v === 1 });
    big.add(1234567, { b: '2', a: '1', 'é': 'ü' });
    for (const v of [123456, 0.00001, 1e21, 12345678.9]) sizes.add(v);
  });
}
`;

/**
 * Metadata: VUs 1 and 2 loop, VU 3 arrives; each keeps what it set across its iterations, as k6
 * activates a VU once per scenario (arrival-rate executors too), and starts afresh in the next.
 */
const METADATA_SCRIPT = String.raw`
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import exec from 'k6/execution';
const c = new Counter('my_counter');
export const options = {
  systemTags: ['vu', 'iter', 'scenario', 'group', 'status', 'method', 'url', 'name', 'expected_response', 'proto'],
  scenarios: {
    loop: { executor: 'per-vu-iterations', vus: 2, iterations: 2, exec: 'looped' },
    // 3/s for 1.5 s: 5 arrivals, none due at the very end, where k6 races its own deadline.
    rate: { executor: 'constant-arrival-rate', rate: 3, timeUnit: '1s', duration: '1500ms', preAllocatedVUs: 1, exec: 'arrived', startTime: '1s' },
  },
};
export function setup() { c.add(1); }
export function looped() {
  if (exec.vu.iterationInScenario === 0) exec.vu.metrics.metadata.trace_id = 'loop';
  c.add(2);
  http.get(__ENV.TARGET);
  if (exec.vu.iterationInScenario === 1) {
    console.log(JSON.stringify(Object.keys(exec.vu.metrics.metadata).sort()), exec.vu.metrics.metadata.vu === String(exec.vu.idInTest));
    delete exec.vu.metrics.metadata.trace_id;
    c.add(3);
  }
}
export function arrived() {
  console.log('arrived, metadata kept: ' + ('trace' in exec.vu.metrics.metadata));
  exec.vu.metrics.metadata.trace = 1;
  c.add(4);
  try { exec.vu.metrics.metadata.bad = {}; } catch (e) { console.log(String(e)); }
}
export function teardown() { c.add(5); }
`;

/** Metrics whose values are measured durations: they differ from run to run. */
const MEASURED = /^(http_req_(?!failed)|iteration_duration$|group_duration$)/;

/** The file's lines, each sample's time (and a measured duration in whole ns) masked, in order of their text. */
function comparableLines(text: string): string[] {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const metric = /^\{"metric":"([^"]+)","type":"Point"/.exec(line)?.[1];
      if (metric === undefined) return line;
      const timeless = line.replace(/"time":"[^"]+"/, '"time":"T"');
      // A measured duration is whole nanoseconds, as Go measures one: only then is it masked.
      return MEASURED.test(metric)
        ? timeless.replace(/"value":([^,]+),/, (all, value: string) =>
            Math.round(Number(value) * 1e6) / 1e6 === Number(value) ? '"value":"D",' : all,
          )
        : timeless;
    })
    .sort();
}

describe('runner/outputs json: the lines real k6 v1.3 writes, byte for byte', function () {
  this.timeout(120_000);
  let target: Awaited<ReturnType<typeof startReferenceTarget>>;
  before(async () => {
    target = await startReferenceTarget();
  });
  after(() => target.close());

  /** The script on both engines with `--out json`: each engine's file and log lines. */
  async function bothEngines(
    script: string,
  ): Promise<Record<'k6' | 'node', { ndjson: string; logs: string[] }>> {
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-json-k6-'));
    try {
      writeFileSync(join(dir, 'script.js'), script);
      const out = {} as Record<'k6' | 'node', { ndjson: string; logs: string[] }>;
      for (const engine of ['k6', 'node'] as const) {
        const run = await runLoadlab(['-q', '--out', `json=${engine}.json`, 'script.js'], {
          engine,
          cwd: dir,
          env: { ...process.env, TARGET: `${target.url}/health` },
          timeoutMs: 60_000,
        });
        assert.equal(run.code, 0, run.stderr);
        const logs = run.stderr
          .split('\n')
          .filter((l) => l.startsWith('time='))
          .map((l) => l.replace(/^time="[^"]*" /, ''));
        out[engine] = { ndjson: readFileSync(join(dir, `${engine}.json`), 'utf8'), logs };
      }
      return out;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("escapes, orders tag keys and writes numbers as k6's easyjson does", async function () {
    realK6OrSkip(this);
    const both = await bothEngines(SCRIPT);
    const lines = { k6: comparableLines(both.k6.ndjson), node: comparableLines(both.node.ndjson) };
    assert.ok(
      lines.k6.some((l) => l.includes('"value":1.234567e+06')),
      'k6 wrote a Go float',
    );
    assert.deepEqual(lines.node, lines.k6);
  });

  it('writes sample metadata as k6 does: vu and iter when enabled, exec.vu.metrics.metadata, kept per VU and scenario', async function () {
    realK6OrSkip(this);
    const both = await bothEngines(METADATA_SCRIPT);
    /**
     * Each distinct sample as metric, tags and metadata (a Go map's keys come in any order: sorted
     * here). Which VU ids k6 gives which scenario depends on which VU finished its init first: the
     * `vu` value is masked (its presence is compared).
     */
    const distinct = (ndjson: string) =>
      [
        ...new Set(
          ndjsonPoints(ndjson, (metric) => metric === 'my_counter' || metric === 'http_reqs').map((p) => {
            const meta = p.data.metadata && { ...p.data.metadata };
            if (meta?.vu !== undefined) meta.vu = /^[1-3]$/.test(meta.vu) ? 'VU' : meta.vu;
            const sortedMeta =
              meta && Object.fromEntries(Object.entries(meta).sort(([a], [b]) => (a < b ? -1 : 1)));
            return JSON.stringify([p.metric, p.data.value, p.data.tags, sortedMeta]);
          }),
        ),
      ].sort();
    const k6 = distinct(both.k6.ndjson);
    assert.ok(
      k6.some((l) => l.includes('"trace_id":"loop"')),
      "k6 wrote the script's metadata",
    );
    assert.deepEqual(distinct(both.node.ndjson), k6);
    assert.deepEqual([...new Set(both.node.logs)].sort(), [...new Set(both.k6.logs)].sort());
  });
});
