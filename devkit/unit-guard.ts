// `npm run test:unit` loads this first (mocha --require): a unit test may start no process, no server,
// no worker thread and no browser. Each of those throws here, naming the rule, so a test that needs one
// is named *.e2e.test.ts and runs in `npm run test:e2e` instead of slowing the fast tier.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import workerThreads from 'node:worker_threads';

const RULE = 'unit tests start no process, server, worker or browser: name this file *.e2e.test.ts';

export class UnitTierViolation extends Error {
  constructor(what: string) {
    super(`${what}: ${RULE}`);
  }
}

function forbid<T extends object>(target: T, names: readonly (keyof T & string)[], label: string): void {
  for (const name of names) {
    Object.defineProperty(target, name, {
      configurable: true,
      writable: true,
      value: () => {
        throw new UnitTierViolation(`${label}.${name}`);
      },
    });
  }
}

forbid(
  childProcess,
  ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'],
  'child_process',
);
net.Server.prototype.listen = function listen(): never {
  throw new UnitTierViolation('net.Server.listen');
};
class ForbiddenWorker {
  constructor() {
    throw new UnitTierViolation('new Worker');
  }
}
Object.defineProperty(workerThreads, 'Worker', {
  configurable: true,
  writable: true,
  value: ForbiddenWorker,
});
// ES module imports of node builtins read these bindings: make them see the replacements.
syncBuiltinESMExports();
