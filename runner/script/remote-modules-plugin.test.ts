// k6 v1.3's module loader rules in the remote-modules plugin, through esbuild with a fake fetch (no
// network): what a failed fetch names, and the github.com/cdnjs.com shorthands k6 refuses since v0.53.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build, type Message } from 'esbuild';
import { REMOTE_PLUGIN, remoteModules } from './remote-modules.js';

const GITHUB_REFUSAL =
  "github.com 'special' urls are no longer supported - please use real ones. " +
  'You can get yours by going to github and copy-pasting the full url to the actual raw JavaScript file';
const CDNJS_REFUSAL =
  "cdnjs.com 'special' urls are no longer supported - please use real ones. " +
  'You can get yours by going to cdnjs and copy-pasting the full url to the actual JavaScript file';

/** A fake remote server: known URLs answer their text, others fail as k6's fetch does on a 404. */
function fakeServer(modules: Record<string, string>) {
  const fetched: string[] = [];
  const fetchText = (url: string): Promise<string> => {
    fetched.push(url);
    const body = modules[url];
    return body === undefined ? Promise.reject(new Error(`not found: ${url}`)) : Promise.resolve(body);
  };
  return { fetched, fetchText };
}

describe('remote modules plugin (k6 v1.3 loader rules, fake fetch)', () => {
  let dir = '';

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'loadlab-remote-unit-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** Bundles `main.js` (plus local files) as load-script.ts does; k6 modules stay external. */
  async function bundle(
    main: string,
    fetchText: (url: string) => Promise<string>,
    local: Record<string, string> = {},
  ): Promise<{ code?: string; errors: Message[] }> {
    for (const [name, text] of Object.entries({ ...local, 'main.js': main })) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
    try {
      const result = await build({
        entryPoints: [path.join(dir, 'main.js')],
        bundle: true,
        write: false,
        format: 'cjs',
        platform: 'neutral',
        logLevel: 'silent',
        mainFields: [],
        external: ['k6', 'k6/*'],
        plugins: [remoteModules(fetchText)],
      });
      return { code: result.outputFiles[0]!.text, errors: [] };
    } catch (err) {
      return { errors: (err as { errors: Message[] }).errors };
    }
  }

  /** The one error of a failed bundle, which load-script.ts passes on as is when the plugin made it. */
  function onlyPluginError(r: { errors: Message[] }): string {
    assert.equal(r.errors.length, 1, JSON.stringify(r.errors));
    assert.equal(r.errors[0]!.pluginName, REMOTE_PLUGIN);
    return r.errors[0]!.text;
  }

  it('names a failed relative import inside a remote module as written, and the URL it fetched', async () => {
    const server = fakeServer({
      'https://mods.test/lib/greet.js': `import { shout } from './util/gone.js'; export const greet = shout;`,
    });
    const r = await bundle(
      `import { greet } from 'https://mods.test/lib/greet.js'; greet('x');`,
      server.fetchText,
    );
    assert.equal(
      onlyPluginError(r),
      'The moduleSpecifier "./util/gone.js" couldn\'t be retrieved from the resolved url ' +
        '"https://mods.test/lib/util/gone.js". Error : "not found: https://mods.test/lib/util/gone.js"',
    );
    assert.deepEqual(server.fetched, [
      'https://mods.test/lib/greet.js',
      'https://mods.test/lib/util/gone.js',
    ]);
  });

  it('names a failed root-relative and parent-relative import as written', async () => {
    const server = fakeServer({
      'https://mods.test/lib/a.js': `import '../up.js';`,
      'https://mods.test/lib/b.js': `import '/root.js';`,
    });
    const up = await bundle(`import 'https://mods.test/lib/a.js';`, server.fetchText);
    assert.match(
      onlyPluginError(up),
      /^The moduleSpecifier "\.\.\/up\.js" .* url "https:\/\/mods\.test\/up\.js"\./,
    );
    const root = await bundle(`import 'https://mods.test/lib/b.js';`, server.fetchText);
    assert.match(
      onlyPluginError(root),
      /^The moduleSpecifier "\/root\.js" .* url "https:\/\/mods\.test\/root\.js"\./,
    );
  });

  it('names a failed https import of the script as written', async () => {
    const server = fakeServer({});
    const r = await bundle(`import x from 'https://mods.test/nope.js?v=1'; x();`, server.fetchText);
    assert.equal(
      onlyPluginError(r),
      'The moduleSpecifier "https://mods.test/nope.js?v=1" couldn\'t be retrieved from the resolved url ' +
        '"https://mods.test/nope.js?v=1". Error : "not found: https://mods.test/nope.js?v=1"',
    );
  });

  it('fetches a module once when it is imported under two specifiers', async () => {
    const server = fakeServer({
      'https://mods.test/lib/a.js': `export { b } from './b.js';`,
      'https://mods.test/lib/b.js': `export const b = 'B';`,
    });
    const r = await bundle(
      `import { b } from 'https://mods.test/lib/b.js'; import { b as b2 } from 'https://mods.test/lib/a.js'; console.log(b, b2);`,
      server.fetchText,
    );
    assert.deepEqual(r.errors, []);
    assert.deepEqual(server.fetched.sort(), ['https://mods.test/lib/a.js', 'https://mods.test/lib/b.js']);
  });

  it("refuses github.com/… shorthands with k6 v1.3's message and fetches nothing", async () => {
    for (const specifier of [
      'github.com/grafana/k6/samples/x.js',
      'github.com/grafana',
      'github.company/x.js',
    ]) {
      const server = fakeServer({});
      const r = await bundle(`import x from '${specifier}'; x();`, server.fetchText);
      assert.equal(onlyPluginError(r), GITHUB_REFUSAL, specifier);
      assert.deepEqual(server.fetched, [], specifier);
    }
  });

  it("refuses cdnjs.com/… shorthands with k6 v1.3's message and fetches nothing", async () => {
    for (const specifier of [
      'cdnjs.com/libraries/Faker',
      'cdnjs.com/libraries/Faker/3.1.0',
      'cdnjs.com/libraries/Faker/3.1.0/faker.js',
      'cdnjs.com/libraries/Faker/locales/en_AU/faker.en_AU.min.js',
    ]) {
      const server = fakeServer({});
      const r = await bundle(`import x from '${specifier}'; x();`, server.fetchText);
      assert.equal(onlyPluginError(r), CDNJS_REFUSAL, specifier);
      assert.deepEqual(server.fetched, [], specifier);
    }
  });

  it('refuses a shorthand imported by a remote module too', async () => {
    const server = fakeServer({ 'https://mods.test/lib/a.js': `import 'cdnjs.com/libraries/lodash.js';` });
    const r = await bundle(`import 'https://mods.test/lib/a.js';`, server.fetchText);
    assert.equal(onlyPluginError(r), CDNJS_REFUSAL);
  });

  it('treats a github.com "scheme" as a scheme, as k6 looks for :// first', async () => {
    const r = await bundle(`import x from 'github.com://u/r/x.js'; x();`, fakeServer({}).fetchText);
    assert.equal(
      onlyPluginError(r),
      'only supported schemes for imports are file and https, github.com://u/r/x.js has `github.com`',
    );
  });

  it("refuses a bare name (no node_modules in k6) with k6 v1.3's message, in the script and in a remote module", async () => {
    for (const name of ['lodash', 'node:fs', 'k6-utils']) {
      const r = await bundle(`import x from '${name}'; x();`, fakeServer({}).fetchText);
      assert.equal(
        onlyPluginError(r),
        `The moduleSpecifier "${name}" couldn't be recognised as something k6 supports.`,
      );
    }
    const server = fakeServer({ 'https://mods.test/lib/a.js': `import _ from 'lodash'; export default _;` });
    const inRemote = await bundle(`import a from 'https://mods.test/lib/a.js'; a();`, server.fetchText);
    assert.equal(
      onlyPluginError(inRemote),
      'The moduleSpecifier "lodash" couldn\'t be recognised as something k6 supports.',
    );
  });

  it('leaves k6 modules and local relative imports alone', async () => {
    const server = fakeServer({});
    const r = await bundle(
      `import http from 'k6/http'; import { sleep } from 'k6'; import { twice } from './lib/github.com.js';
export default function () { sleep(twice(http.get('x'))); }`,
      server.fetchText,
      { 'lib/github.com.js': `export const twice = (x) => [x, x];` },
    );
    assert.deepEqual(r.errors, []);
    assert.match(r.code ?? '', /require\("k6\/http"\)/);
    assert.match(r.code ?? '', /twice = \(x\) => \[x, x\]/);
    assert.deepEqual(server.fetched, []);
  });
});
