// `npm run test:unit` loads this first (mocha --require): a unit test may start no process, no server
// and no browser (worker threads stay: tsx and esbuild run on them). Each of those throws here, naming the rule, so a test that needs one
// is named *.e2e.test.ts and runs in `npm run test:e2e` instead of slowing the fast tier.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const RULE = 'unit tests start no process, server or browser: name this file *.e2e.test.ts';

export class UnitTierViolation extends Error {
  constructor(what: string) {
    super(`${what}: ${RULE}`);
  }
}

/** esbuild's own service process is part of compiling a script, as tsx's is: not a process under test. */
const isEsbuild = (command: unknown) => typeof command === 'string' && /[\\/]esbuild(\.exe)?$/.test(command);

function forbid<T extends object>(target: T, names: readonly (keyof T & string)[], label: string): void {
  for (const name of names) {
    const original = target[name] as (...args: unknown[]) => unknown;
    Object.defineProperty(target, name, {
      configurable: true,
      writable: true,
      value: (...args: unknown[]) => {
        if (isEsbuild(args[0])) return original.apply(target, args);
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
// ES module imports of node builtins read these bindings: make them see the replacements.
syncBuiltinESMExports();
