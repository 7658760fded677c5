// `--out json` written byte for byte as real k6 v1.3 writes it: the same script's lines on both
// engines are the same text but for each sample's time and measured durations, which are whole
// nanoseconds on both (the runner's were float noise: 0.7835789999999747 where k6 writes 2.102916). k6 encodes them with
// easyjson: tag keys in Go's order, `<`, `>`, `&`, U+2028 and control characters escaped as \u00XX,
// numbers in Go's 'g' format (1234567 is 1.234567e+06); the runner wrote JSON.stringify's text.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it("escapes, orders tag keys and writes numbers as k6's easyjson does", async function () {
    realK6OrSkip(this);
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-json-k6-'));
    try {
      writeFileSync(join(dir, 'script.js'), SCRIPT);
      const lines: Record<'k6' | 'node', string[]> = { k6: [], node: [] };
      for (const engine of ['k6', 'node'] as const) {
        const run = await runLoadlab(['-q', '--out', `json=${engine}.json`, 'script.js'], {
          engine,
          cwd: dir,
          env: { ...process.env, TARGET: `${target.url}/health` },
          timeoutMs: 60_000,
        });
        assert.equal(run.code, 0, run.stderr);
        lines[engine] = comparableLines(readFileSync(join(dir, `${engine}.json`), 'utf8'));
      }
      assert.ok(
        lines.k6.some((l) => l.includes('"value":1.234567e+06')),
        'k6 wrote a Go float',
      );
      assert.deepEqual(lines.node, lines.k6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
