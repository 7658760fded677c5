// Log lines as k6's logger (logrus TextFormatter) writes them on a non-TTY stderr.
import assert from 'node:assert/strict';
import { logLine, progressClock, startProgress } from './console.js';

/** The line without its time="…", which changes every second. */
const untimed = (line: string) => line.replace(/^time="[^"]+" /, '');

describe('runner/core/console logLine', () => {
  it('writes a value bare when logrus would, else quoted, for msg and fields alike', () => {
    assert.equal(
      untimed(logLine('info', 'after', { source: 'console' })),
      'level=info msg=after source=console\n',
    );
    assert.equal(
      untimed(logLine('warn', 'Request Failed', { error: 'Get "http://127.0.0.1:1/x": refused' })),
      'level=warning msg="Request Failed" error="Get \\"http://127.0.0.1:1/x\\": refused"\n',
    );
    // logrus's bare set: letters, digits and - . _ / @ ^ + (a colon or a space needs quotes).
    assert.equal(
      untimed(logLine('info', 'a-b.c_d/e@f^g+h', { k: 'x:y' })),
      'level=info msg=a-b.c_d/e@f^g+h k="x:y"\n',
    );
    assert.match(logLine('error', 'x'), /^time="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ" level=error msg=x\n$/);
  });
});

describe('runner/core/console progress', () => {
  it("the clock is as wide as the run's maximum duration needs, tenths truncated (k6's fixed-length duration)", () => {
    assert.equal(progressClock(1_000, 3_000), '1.0s');
    assert.equal(progressClock(1_980, 3_000), '1.9s');
    assert.equal(progressClock(3_200, 40_000), '03.2s');
    // sc.out in the k6 golden outputs: a 10 min shared-iterations maxDuration.
    assert.equal(progressClock(1_000, 600_000), '00m01.0s');
    assert.equal(progressClock(61_000, 600_000), '01m01.0s');
    assert.equal(progressClock(3_601_000, 7_200_000), '01h00m01.0s');
    assert.equal(progressClock(90_000_000, 2 * 86_400_000), '1d01h00m00.0s');
  });

  it('writes a block every second to stdout when it is not a terminal, the last one when asked', async () => {
    const out: string[] = [];
    const err: string[] = [];
    let n = 0;
    const progress = startProgress(
      { out: (t) => out.push(t), err: (t) => err.push(t), isTTY: false },
      () => `running (${++n})`,
    );
    await new Promise((resolve) => setTimeout(resolve, 2_300));
    progress.stop();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    assert.deepEqual(out, ['\nrunning (1)\n', '\nrunning (2)\n']);
    progress.final();
    assert.equal(out.at(-1), '\nrunning (3)\n');
    assert.deepEqual(err, []);
  });
});
