// npm 11 warns on every install about dependencies whose install scripts package.json's allowScripts
// does not cover (npm 12 blocks them): a newcomer's clean setup printed a warning they cannot judge.
// Every package the lockfile marks with an install script is either trusted (true) or denied (false).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

interface Lock {
  packages: Record<string, { version?: string; hasInstallScript?: boolean }>;
}

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as Lock;

describe('package.json allowScripts', () => {
  it('decides on every dependency with an install script in the lockfile, and on nothing else', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    assert.ok(withScripts.length > 0, 'the lockfile records hasInstallScript');
    assert.deepEqual(Object.keys(pkg.allowScripts ?? {}).sort(), [...new Set(withScripts)].sort());
    for (const value of Object.values(pkg.allowScripts ?? {})) assert.equal(typeof value, 'boolean');
  });

  it("runs esbuild's (it installs the platform binary build:k6 needs), not protobufjs's (a version-scheme notice)", () => {
    assert.equal(pkg.allowScripts?.esbuild, true);
    assert.equal(pkg.allowScripts?.protobufjs, false);
  });
});
