// The harness the e2e tests start their processes with (script-process.ts, command.ts), on small
// `node -e` children: what it collects, when its waits give up, and what stop and the bounds do.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { runCommand, runCommandSync } from './command.js';
import { firstLine, startProcess, untilOutput, untilReady } from './script-process.js';

const node = (code: string): [string, string[]] => [process.execPath, ['-e', code]];

describe('devkit/script-process and devkit/command', function () {
  this.timeout(30_000);

  it('collects stdout, stderr and both in arrival order, and removes its temporary folder', async () => {
    const proc = startProcess(
      ...node(
        "process.stdout.write('a'); setTimeout(() => { process.stderr.write('b'); process.stdout.write('c'); console.log(process.cwd()); process.exit(3); }, 50)",
      ),
    );
    assert.equal(await proc.closed, 3);
    assert.equal(proc.err(), 'b');
    assert.match(proc.out(), /^ac\/.*loadlab-script-/);
    assert.match(proc.output(), /^abc\//);
    assert.equal(existsSync(proc.out().slice(2).trim()), false);
  });

  it('passes only PATH and the given environment', async () => {
    process.env.LOADLAB_HARNESS_LEAK = 'leaked';
    try {
      const proc = startProcess(
        ...node("console.log(process.env.LOADLAB_HARNESS_LEAK ?? 'none', process.env.GIVEN)"),
        { env: { GIVEN: 'given' } },
      );
      await proc.closed;
      assert.equal(proc.out(), 'none given\n');
    } finally {
      delete process.env.LOADLAB_HARNESS_LEAK;
    }
  });

  it('untilOutput resolves once the pattern is printed', async () => {
    const proc = startProcess(
      ...node("setTimeout(() => console.log('ready on 1234'), 200); setInterval(() => {}, 1000)"),
    );
    try {
      assert.match(await untilOutput(proc, /ready on (\d+)/, 10_000), /ready on 1234/);
    } finally {
      await proc.stop();
    }
  });

  it('a wait fails at once, with the stderr, when the process dies first', async () => {
    const proc = startProcess(...node("console.error('cannot start: port taken'); process.exit(2)"));
    const started = Date.now();
    await assert.rejects(
      untilOutput(proc, /never/, 15_000),
      /exited \(2\) before it was ready: cannot start: port taken/,
    );
    await assert.rejects(
      untilReady(proc, 'a probe', async () => undefined, 15_000),
      /exited \(2\) before it was ready/,
    );
    assert.ok(Date.now() - started < 5000, `gave up after ${Date.now() - started} ms`);
  });

  it('a command that cannot start fails a wait at once', async () => {
    const proc = startProcess('/nonexistent/loadlab-harness', []);
    const started = Date.now();
    await assert.rejects(
      untilReady(proc, 'a probe', async () => undefined, 15_000),
      /ENOENT/,
    );
    assert.ok(Date.now() - started < 5000, `gave up after ${Date.now() - started} ms`);
    assert.equal(await proc.exit, 127);
  });

  it('untilReady names what it waited for when the time is up', async () => {
    const proc = startProcess(...node('setInterval(() => {}, 1000)'));
    try {
      await assert.rejects(
        untilReady(proc, 'the moon', async () => undefined, 300),
        /timed out after 300 ms waiting for the moon/,
      );
    } finally {
      await proc.stop();
    }
  });

  it('stop sends the signal and resolves with the exit code the process chose', async () => {
    const proc = startProcess(
      ...node(
        "process.on('SIGINT', () => { console.log('bye'); process.exit(130); }); console.log('up'); setInterval(() => {}, 1000)",
      ),
    );
    await untilOutput(proc, /up/);
    assert.equal(await proc.stop('SIGINT'), 130);
    assert.equal(proc.out(), 'up\nbye\n');
    assert.equal(await proc.stop(), 130, 'a second stop returns the same exit');
  });

  it('stdin: pipe lets a test talk to the process; firstLine reads what a server prints to say where it is', async () => {
    const proc = startProcess(
      ...node(
        "console.log('127.0.0.1:4242'); process.stdin.on('data', (d) => console.log('got ' + d)); process.stdin.on('end', () => process.exit(0))",
      ),
      { stdin: 'pipe' },
    );
    assert.equal(firstLine('no newline yet'), undefined);
    assert.equal(await untilReady(proc, 'the address', async () => firstLine(proc.out())), '127.0.0.1:4242');
    proc.child.stdin!.end('stop');
    assert.equal(await proc.exit, 0);
    assert.match(proc.out(), /got stop/);
  });

  it('killAfterMs bounds a process that hangs', async () => {
    const proc = startProcess(...node("console.log('hung'); setInterval(() => {}, 1000)"), {
      killAfterMs: 300,
    });
    assert.match(proc.ending(), /^still running after \d+\.\d s/);
    assert.equal(await proc.exit, null);
    assert.equal(proc.child.signalCode, 'SIGKILL');
    assert.match(
      proc.ending(),
      /^ended by SIGKILL \(killAfterMs: 300 ms\) after \d+\.\d s; its output ended with:\nhung\n$/,
    );
  });

  it('ending() tells a code from a signal the harness did not send', async () => {
    const coded = startProcess(...node("console.error('bad'); process.exit(3)"));
    await coded.exit;
    assert.match(coded.ending(), /^exited with code 3 after \d+\.\d s; its output ended with:\nbad\n$/);
    const crashed = startProcess(...node("process.kill(process.pid, 'SIGSEGV')"), { killAfterMs: 60_000 });
    await crashed.exit;
    assert.match(crashed.ending(), /^ended by SIGSEGV after /);
  });

  it('runCommand returns the exit code, stdout and stderr', async () => {
    const result = await runCommand(
      ...node("console.log('out'); setTimeout(() => { console.error('err'); process.exitCode = 4; }, 100)"),
    );
    assert.deepEqual(result, {
      code: 4,
      signal: null,
      stdout: 'out\n',
      stderr: 'err\n',
      output: 'out\nerr\n',
    });
  });

  it('runCommand kills a command still running after timeoutMs', async () => {
    const started = Date.now();
    const result = await runCommand(...node('setInterval(() => {}, 1000)'), { timeoutMs: 500 });
    assert.equal(result.code, null);
    assert.equal(result.signal, 'SIGKILL');
    assert.ok(Date.now() - started < 10_000);
  });

  it('runCommand lets a test signal the child once it has printed something', async () => {
    const result = await runCommand(
      ...node(
        "process.on('SIGINT', () => process.exit(105)); console.log('running (0s)'); setInterval(() => {}, 1000)",
      ),
      { onOutput: ({ out, child }) => out().includes('running (') && child.kill('SIGINT') },
    );
    assert.equal(result.code, 105);
  });

  it('runCommand reports a command that does not exist as exit 127 with the reason', async () => {
    const result = await runCommand('/nonexistent/loadlab-harness', []);
    assert.equal(result.code, 127);
    assert.match(result.stderr, /ENOENT/);
  });

  it('runCommand writes the given input to the command and closes it', async () => {
    const result = await runCommand(...node('process.stdin.pipe(process.stdout)'), { input: 'in\n' });
    assert.deepEqual([result.code, result.stdout], [0, 'in\n']);
  });

  it('runCommandSync returns the exit code, stdout and stderr, with only PATH and the given environment', () => {
    process.env.LOADLAB_HARNESS_LEAK = 'leaked';
    try {
      const result = runCommandSync(
        ...node(
          "console.log(process.env.LOADLAB_HARNESS_LEAK ?? 'none', process.env.GIVEN, process.cwd()); console.error('err'); process.exitCode = 4",
        ),
        { env: { GIVEN: 'given' } },
      );
      assert.equal(result.code, 4);
      assert.equal(result.stderr, 'err\n');
      assert.match(result.stdout, /^none given \/.*loadlab-script-/);
      assert.equal(existsSync(result.stdout.split(' ')[2]!.trim()), false);
    } finally {
      delete process.env.LOADLAB_HARNESS_LEAK;
    }
  });

  it('runCommandSync writes the given input and kills a command still running after timeoutMs', () => {
    assert.equal(runCommandSync(...node('process.stdin.pipe(process.stdout)'), { input: 'in' }).stdout, 'in');
    const started = Date.now();
    assert.equal(runCommandSync(...node('setInterval(() => {}, 1000)'), { timeoutMs: 500 }).code, null);
    assert.ok(Date.now() - started < 10_000);
  });

  it('runCommandSync reports a command that does not exist as exit 127 with the reason', () => {
    const result = runCommandSync('/nonexistent/loadlab-harness', []);
    assert.equal(result.code, 127);
    assert.match(result.stderr, /ENOENT/);
  });
});
