// The exit with VU isolates still running (isolate-exit.ts): a process that disposes sleeping
// isolates and exits at once died of SIGSEGV in about half of such runs on the 2-core host (the
// fixture's `dispose` mode shows it); through settleIsolates() it ends with its own exit code.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCommand } from '../../devkit/command.js';
import { nodeScript } from '../../devkit/script-process.js';
import { isolatesOrSkip } from '../testing/vu-isolates.js';

const CHILD = join(import.meta.dirname, 'fixtures', 'isolate-exit-child.ts');
const RUNS = 8;

async function exits(mode: 'settle' | 'serve' | 'natural'): Promise<string[]> {
  const [node, args] = nodeScript(CHILD, [mode]);
  const ends: string[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const r = await runCommand(node, ['--no-node-snapshot', ...args], { timeoutMs: 15_000 });
    ends.push(r.signal ?? `exit ${r.code}${r.stderr ? `: ${r.stderr.trim().split('\n')[0]}` : ''}`);
  }
  return ends;
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
});
