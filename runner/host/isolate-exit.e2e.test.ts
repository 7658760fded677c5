// The exit with VU isolates still running (isolate-exit.ts): a process that disposes sleeping
// isolates and exits at once died of SIGSEGV in about half of such runs on the 2-core host (the
// fixture's `dispose` mode shows it); through settleIsolates() it ends with its own exit code.
// A process that ends by itself must not leave V8 marking: Node's teardown would finish that
// collection after isolated-vm let go of its environment, and abort (collectAtExit()).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCommand } from '../../devkit/command.js';
import { nodeScript } from '../../devkit/script-process.js';
import { isolatesOrSkip } from '../testing/vu-isolates.js';

const CHILD = join(import.meta.dirname, 'fixtures', 'isolate-exit-child.ts');
const RUNS = 8;

async function exits(mode: 'settle' | 'serve' | 'natural' | 'leave'): Promise<string[]> {
  const [node, args] = nodeScript(CHILD, [mode]);
  const ends: string[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const r = await runCommand(node, ['--no-node-snapshot', ...args], { timeoutMs: 15_000 });
    ends.push(r.signal ?? `exit ${r.code}${r.stderr ? `: ${r.stderr.trim().split('\n')[0]}` : ''}`);
  }
  return ends;
}

/**
 * The lines of V8's GC trace after the last full collection asked for by gc() (reason `testing`), of
 * the isolate that made it: the fixture's VU isolates ask for none, so that one is the main isolate's.
 */
function traceAfterLastForcedCollection(stdout: string): string[] | undefined {
  const lines = stdout.split('\n');
  const last = lines.findLastIndex((line) => /^\[\d+:0x[0-9a-f]+\].* Mark-Compact .* testing/.test(line));
  if (last < 0) return undefined;
  const isolate = /^\[\d+:(0x[0-9a-f]+)/.exec(lines[last]!)![1]!;
  return lines.slice(last + 1).filter((line) => line.includes(`:${isolate}`));
}

describe('runner/host: exiting while VU isolates run', function () {
  this.timeout(180_000);

  it(`settleIsolates(): ${RUNS} exits with sleeping isolates all end with the process's own code`, async function () {
    isolatesOrSkip(this);
    assert.deepEqual(await exits('settle'), Array(RUNS).fill('exit 105'));
  });

  it(`a VU's end: ${RUNS} exits right after isolates whose serve loops waited were answered, then disposed, all end with the process's own code`, async function () {
    isolatesOrSkip(this);
    assert.deepEqual(await exits('serve'), Array(RUNS).fill('exit 105'));
  });

  it(`exitWith() after such an end: ${RUNS} processes that end by themselves all end with their own code`, async function () {
    isolatesOrSkip(this);
    assert.deepEqual(await exits('natural'), Array(RUNS).fill('exit 105'));
  });

  it(`leaveVusToExit(): ${RUNS} exits with idle isolates left undisposed all end with the process's own code`, async function () {
    isolatesOrSkip(this);
    assert.deepEqual(await exits('leave'), Array(RUNS).fill('exit 105'));
  });

  it('exitWith(): a full collection is the last thing V8 does as the process ends, so no marking is left to the teardown', async function () {
    isolatesOrSkip(this);
    const [node, args] = nodeScript(CHILD, ['natural']);
    const r = await runCommand(
      node,
      ['--no-node-snapshot', '--trace-gc', '--trace-incremental-marking', ...args],
      { timeoutMs: 15_000 },
    );
    assert.equal(r.code, 105, r.stderr);
    const after = traceAfterLastForcedCollection(r.stdout);
    assert.ok(
      after,
      `no full collection at exit; the trace ends:\n${r.stdout.trim().split('\n').slice(-3).join('\n')}`,
    );
    assert.deepEqual(
      after.filter((line) => line.includes('[IncrementalMarking] Start')),
      [],
    );
  });
});
