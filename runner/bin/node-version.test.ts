import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lowestAllowed, nodeVersionProblem, refuseOldNode } from './node-version.js';

const MANIFEST = new URL('../package.json', import.meta.url);
const ENGINES = (JSON.parse(readFileSync(MANIFEST, 'utf8')) as { engines: { node: string } }).engines.node;

describe('runner/bin/node-version: one line on a Node older than engines', () => {
  it('reads a >=x.y.z range and leaves other forms unchecked', () => {
    assert.deepEqual(lowestAllowed('>=20.18.1'), [20, 18, 1]);
    assert.deepEqual(lowestAllowed(' >= v22.0.0 '), [22, 0, 0]);
    assert.equal(lowestAllowed('^20 || >=22'), undefined);
    assert.equal(nodeVersionProblem('16.0.0', '^20 || >=22'), undefined);
  });

  it('allows the lowest version and every newer one, refuses each older one', () => {
    for (const version of ['20.18.1', '20.19.0', '21.0.0', '22.0.0', '24.21.0', 'v26.1.0'])
      assert.equal(nodeVersionProblem(version, '>=20.18.1'), undefined, version);
    for (const version of ['20.18.0', '20.9.9', '18.20.4', 'v16.0.0', '8.0'])
      assert.match(
        nodeVersionProblem(version, '>=20.18.1') ?? '',
        /^loadlab needs Node\.js >=20\.18\.1; this is/,
      );
  });

  it("says which Node it needs, in one line, with the package's own engines", () => {
    assert.equal(
      nodeVersionProblem('18.19.0', ENGINES),
      `loadlab needs Node.js ${ENGINES}; this is Node.js v18.19.0: install a current Node.js (22 or 24) and run it again`,
    );
  });

  it('exits 1 after writing the line for an old Node, and returns on this one', () => {
    const written: string[] = [];
    const exits: number[] = [];
    const write = process.stderr.write;
    const exit = process.exit;
    process.stderr.write = ((text: string) => written.push(text) > 0) as typeof process.stderr.write;
    process.exit = ((code: number) => void exits.push(code)) as typeof process.exit;
    try {
      refuseOldNode(MANIFEST, '18.19.0');
      refuseOldNode(MANIFEST);
    } finally {
      process.stderr.write = write;
      process.exit = exit;
    }
    assert.deepEqual(exits, [1]);
    assert.equal(written.length, 1);
    assert.match(written[0]!, /^loadlab needs Node\.js .*\n$/);
    assert.equal(written[0]!.split('\n').length, 2);
  });
});
