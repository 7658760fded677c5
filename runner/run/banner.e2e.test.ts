// Where k6's logo comes in a run that fails before it starts: after the script's dependency analysis
// and the secret sources, before the script is loaded. What each engine writes on stdout, side by
// side with real k6 where one is beside the clone, else against what k6 v1.3 was seen to print.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoadlab } from '../../devkit/loadlab-run.js';
import { realK6 } from '../../devkit/real-k6.js';

const SCRIPTS: Record<string, string> = {
  'init-throws.js': "throw new Error('boom');\nexport default function () {}\n",
  'syntax.js': 'export default function () { let x = ; }\n',
  'missing-import.js': "import x from './gone.js';\nexport default function () { x(); }\n",
  'ok.js': 'export default function () {}\n',
};

/**
 * Each failing command, and whether k6 printed its logo before failing. `progressFrame`: k6 also
 * draws its progress bars once, at 0 %, after the logo (an output that cannot start), which the
 * runner does not (runner/README.md, what the side-by-side tests still find).
 */
const CASES: { args: string[]; env?: Record<string, string>; logo: boolean; progressFrame?: true }[] = [
  { args: ['init-throws.js'], logo: true },
  { args: ['syntax.js'], logo: false },
  { args: ['missing-import.js'], logo: false },
  { args: ['missing-import.js'], env: { K6_AUTO_EXTENSION_RESOLUTION: 'false' }, logo: true },
  { args: ['not-there.js'], logo: false },
  { args: ['--secret-source=bogus', 'init-throws.js'], logo: false },
  { args: ['--out', 'bogus', 'ok.js'], logo: true, progressFrame: true },
];

describe('runner/run: the logo of a run that fails before it starts', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'loadlab-logo-'));
    for (const [name, code] of Object.entries(SCRIPTS)) writeFileSync(join(dir, name), code);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const c of CASES)
    it(`${c.env ? `${Object.entries(c.env)[0]!.join('=')} ` : ''}run ${c.args.join(' ')}: ${c.logo ? 'the logo, then the error' : 'no logo'}`, async () => {
      const ours = await runLoadlab(c.args, { cwd: dir, env: c.env });
      assert.notEqual(ours.code, 0, ours.stderr);
      assert.equal(ours.stdout.includes('Grafana'), c.logo, ours.stdout);
      if (realK6()) {
        const theirs = await runLoadlab(c.args, { engine: 'k6', cwd: dir, env: c.env });
        const expected = c.progressFrame
          ? theirs.stdout.replace(/\nInit {2,}\[ {3}0% \][^]*$/, '')
          : theirs.stdout;
        assert.notEqual(expected, c.progressFrame ? theirs.stdout : undefined, theirs.stdout);
        assert.deepEqual([ours.code, ours.stdout], [theirs.code, expected]);
      }
    });
});
