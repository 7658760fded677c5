// The process bench/vu-instructions.ts runs under callgrind: one VU (the runner's, or the bare
// bridge's) sends `warm` requests, then `n`, then `2n`, stopping after each phase until the driver
// has zeroed or dumped callgrind's counters. The driver takes the difference of the two counted
// phases, so what a phase costs besides its requests (the bridge starts new workers) cancels out.
// Usage: node --import tsx bench/lib/vu-instructions-subject.ts runner|bridge <warm> <n>
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createVu, loadScript } from '../../runner/host/hosted-vu.js';
import { loopSpec } from '../../runner/vu/test-support.js';
import { runBareBridge } from './bare-bridge.js';
import { startTarget } from './measure.js';

const [subject, warm, n] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
/** Long enough for the slowest valgrind run; the request counts end every phase first. */
const PHASE_SECONDS = 600;

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
/** Tells the driver a phase is over and waits for its go-ahead (it dumps the counters meanwhile). */
async function phaseDone(name: string): Promise<void> {
  process.stdout.write(`${name}\n`);
  // callgrind reads the driver's commands only while the program runs code: keep ticking.
  const tick = setInterval(() => {}, 5);
  await lines.next();
  clearInterval(tick);
}

/** BENCH_CHECKS=1: bench:runner's script against real k6 (two checks on each response). */
const PLAIN = `import http from 'k6/http';\nexport default function () { http.get(__ENV.URL); }\n`;
const TWO_CHECKS = [
  "import http from 'k6/http';",
  "import { check } from 'k6';",
  'export default function () {',
  '  const res = http.get(__ENV.URL);',
  "  check(res, { 'status is 200': (r) => r.status === 200, 'body is ok': (r) => r.body.length > 0 });",
  '}',
  '',
].join('\n');

const target = await startTarget('bare');
const url = `${target.url}/health`;
const dir = await mkdtemp(join(tmpdir(), 'loadlab-vu-instructions-'));
try {
  if (subject === 'bridge') {
    for (const [requests, phase] of [
      [warm, 'warm'],
      [n, 'one'],
      [2 * n, 'two'],
    ] as const) {
      await runBareBridge(url, 1, PHASE_SECONDS, requests);
      await phaseDone(phase);
    }
  } else {
    const script = join(dir, 'bench.js');
    await writeFile(script, process.env.BENCH_CHECKS === '1' ? TWO_CHECKS : PLAIN);
    const vu = createVu(
      { scriptPath: script, bundle: await loadScript(script), vuId: 1, env: { URL: url }, runTags: {} },
      { onSamples: () => {}, onLog: () => {} },
    );
    await vu.init();
    const endAt = Date.now() + PHASE_SECONDS * 1000;
    for (const [requests, phase] of [
      [warm, 'warm'],
      [n, 'one'],
      [2 * n, 'two'],
    ] as const) {
      await vu.loop(loopSpec({ endAt, maxIterations: requests }), () => {});
      await phaseDone(phase);
    }
    await vu.close();
  }
} finally {
  await target.stop();
  await rm(dir, { recursive: true, force: true });
}
// The readline interface keeps stdin open.
process.exit(0);
