// k6/secrets and --secret-source: the sources' syntax and the log redaction on their own, then
// fixtures/secrets.js logged line for line on real k6 and the runner with several sets of sources,
// and refused sources: one line and k6's exit code on both.
import assert from 'node:assert/strict';
import { parseSecretSources, SecretRedactor } from '../../options/secret-sources.js';
import { runCommand } from '../../../devkit/command.js';
import { REPO } from '../../../devkit/loadlab-run.js';
import { assertSameLogLines, logLines, realK6OrSkip, RUNNER } from '../../testing/log-lines.js';

const SECRETS = 'runner/modules/fixtures/io/secrets.txt';

/** Exit code and log lines (time left out) of a run that is expected to stop before the script. */
async function refusal(
  command: string[],
  flags: string[],
): Promise<{ status: number | null; lines: string[] }> {
  const run = await runCommand(
    command[0]!,
    [...command.slice(1), 'run', '-q', ...flags, 'runner/modules/fixtures/secrets.js'],
    { cwd: REPO, env: { HOME: process.env.HOME ?? '/tmp' } },
  );
  const lines = run.stderr
    .split('\n')
    .filter((line) => line !== '' && !line.includes('Error from API server'))
    .map((line) => line.replace(/^time="[^"]*" /, ''));
  return { status: run.code, lines };
}

const REFUSED = [
  ['--secret-source=nope'],
  ['--secret-source=url=http://127.0.0.1:9/secrets'],
  ['--secret-source=file=runner/modules/fixtures/io/absent.txt'],
  ['--secret-source=file=runner/modules/fixtures/io/secrets-malformed.txt'],
  [`--secret-source=file=filename=${SECRETS},colour=blue`],
  ['--secret-source=mock=abc'],
  ['--secret-source=mock=a=1', '--secret-source=mock=b=2'],
  ['--secret-source=mock=default,a=1', '--secret-source=mock=default,name=x,b=2'],
];

describe('runner/modules k6/secrets', () => {
  it('reads file and mock sources as k6 does: names, default, a lone source as the default', () => {
    const sources = parseSecretSources(
      [`file=name=one,${SECRETS}`, 'mock=default,name=two,token=m,with=a=b'],
      REPO,
    );
    assert.deepEqual(Object.keys(sources).sort(), ['default', 'one', 'two']);
    assert.deepEqual(sources.one, { token: 's3cr3t', user: 'admin', empty: '', with: 'equals=sign' });
    assert.equal(sources.default, sources.two);
    assert.deepEqual(sources.two, { token: 'm', with: 'a=b' });
    assert.deepEqual(Object.keys(parseSecretSources(['mock=a=1'], REPO)).sort(), ['', 'default']);
    assert.deepEqual(parseSecretSources([], REPO), {});
    assert.throws(
      () => parseSecretSources(['url=http://x'], REPO),
      /^Error: no secret source for type "url"/,
    );
  });

  it('redacts each secret read, in messages and field keys and values, earlier secrets first', () => {
    const redactor = new SecretRedactor();
    assert.equal(redactor.redact('s3cr3t'), 's3cr3t');
    redactor.add('s3');
    redactor.add('s3cr3t');
    redactor.add('a.b');
    assert.equal(redactor.redact('s3cr3t a.b axb'), '***SECRET_REDACTED***cr3t ***SECRET_REDACTED*** axb');
    assert.deepEqual(redactor.fields({ as3: 's3' }), { 'a***SECRET_REDACTED***': '***SECRET_REDACTED***' });
  });

  for (const flags of [
    [],
    [`--secret-source=file=${SECRETS}`],
    ['--secret-source=mock=token=abc,user=u'],
    [`--secret-source=file=name=other,${SECRETS}`, '--secret-source=mock=default,token=s3,user=adm'],
  ]) {
    it(`fixtures/secrets.js logs the same lines on real k6 and on the runner: ${flags.join(' ') || 'no source'}`, function () {
      this.timeout(60_000);
      assertSameLogLines(this, 'runner/modules/fixtures/secrets.js', 13, flags);
    });
  }

  it('--secret-source may come before the command, as k6 global flags may, with or without =', function () {
    this.timeout(120_000);
    const script = 'runner/modules/fixtures/secrets.js';
    const after = logLines(RUNNER, script, ['--secret-source=mock=token=abc,user=u']);
    assert.ok(
      after.some((line) => line.includes('token resolved ***SECRET_REDACTED*** (length 3)')),
      after.join('\n'),
    );
    assert.deepEqual(logLines([...RUNNER, '--secret-source=mock=token=abc,user=u'], script), after);
    assert.deepEqual(logLines([...RUNNER, '--secret-source', 'mock=token=abc,user=u'], script), after);
  });

  it('a source it cannot read: one line and exit 255 (k6 -1), with no VU started', async function () {
    this.timeout(120_000);
    for (const flags of REFUSED) {
      const ours = await refusal(RUNNER, flags);
      assert.equal(ours.status, 255, flags.join(' '));
      assert.equal(ours.lines.length, 1, ours.lines.join('\n'));
      assert.match(ours.lines[0]!, /^level=error msg=/);
    }
  });

  it('a source it cannot read: the same line and exit code as real k6', async function () {
    const k6 = realK6OrSkip(this);
    this.timeout(120_000);
    for (const flags of REFUSED)
      assert.deepEqual(await refusal(RUNNER, flags), await refusal(k6, flags), flags.join(' '));
  });
});
