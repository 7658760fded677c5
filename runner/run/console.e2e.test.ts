// Log lines as k6's logger (logrus TextFormatter) writes them on a non-TTY stderr.
import assert from 'node:assert/strict';
import { assertSameLogLines } from '../testing/log-lines.js';
import { logLine, startProgress } from './console.js';
import { goQuote } from '@loadlab/k6-format/go-quote';

/** The line without its time="…", which changes every second. */
const untimed = (line: string) => line.replace(/^time="[^"]+" /, '');

describe('runner/run/console logLine', () => {
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

  it("quotes as Go's %q does: \\x and \\u escapes for what Go does not print, letters and symbols as they are", () => {
    // Recorded from k6 v1.3.0: console.log of runner/run/fixtures/log-escapes.js's string.
    assert.equal(
      goQuote(
        'nbsp[\u00a0] vt[\v] nul[\0] del[\x7f] emoji[😀] zw[\u200b] tab[\t] quote["] back[\\] c1[\u0085] e[é]',
      ),
      '"nbsp[\\u00a0] vt[\\v] nul[\\x00] del[\\x7f] emoji[😀] zw[\\u200b] tab[\\t] quote[\\"] back[\\\\] c1[\\u0085] e[é]"',
    );
  });

  it('fixtures/log-escapes.js logs the same line on real k6 and on the runner', function () {
    this.timeout(60_000);
    assertSameLogLines(this, 'runner/run/fixtures/log-escapes.js', 1);
  });
});

describe('runner/run/console progress', () => {
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
