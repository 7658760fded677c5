// Remote module imports through `loadlab run`, served by a loopback HTTPS server whose self-signed
// certificate the run trusts through NODE_EXTRA_CA_CERTS (as a user would trust a company CA).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCommand } from '../../devkit/command.js';
import { runLoadlab } from '../../devkit/loadlab-run.js';
import { realK6 } from '../../devkit/real-k6.js';

/** What the server has: a module that imports a sibling by relative path and a k6 module. */
const MODULES: Record<string, string> = {
  '/lib/greet.js': `import { shout } from './util/shout.js';
import { sleep } from 'k6';
export function greet(name) { sleep(0); return shout('hello ' + name); }
export function boom() { throw new Error('remote boom'); }`,
  '/lib/util/shout.js': `export const shout = (s) => s.toUpperCase();`,
  '/lib/broken.js': `import { gone } from './util/gone.js';\nexport const broken = gone;`,
  '/lib/ready.js': `import { shout } from './util/shout.js';\nexport const ready = await Promise.resolve(shout('ready'));`,
  // Shaped as jslib's modules are (a versioned path, an index importing siblings), written here:
  // a summary formatter for handleSummary and a helper used in an iteration.
  '/lib/k6-summary/0.1.0/index.js': `import { counted } from './format.js';
export function textSummary(data) {
  return Object.keys(data.metrics).sort().map((name) => counted(name, data.metrics[name])).join('\\n') + '\\n';
}`,
  '/lib/k6-summary/0.1.0/format.js': `export const counted = (name, m) =>
  name + ' ' + m.type + (m.values.count === undefined ? '' : ' count=' + m.values.count);`,
  '/lib/k6-utils/1.4.0/index.js': `export const randomItem = (items) => items[Math.floor(Math.random() * items.length)];`,
};

describe('runner remote module imports (https, loopback, through the CLI)', function () {
  this.timeout(60_000);
  let server: https.Server;
  let base = '';
  let dir = '';
  let caFile = '';
  const seen: string[] = [];

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'loadlab-remote-'));
    const key = path.join(dir, 'key.pem');
    caFile = path.join(dir, 'cert.pem');
    const made = await runCommand(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', caFile, '-days', '1'].concat([
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ]),
      { env: { ...process.env } },
    );
    assert.equal(made.code, 0, made.stderr);
    server = https.createServer({ key: readFileSync(key), cert: readFileSync(caFile) }, (req, res) => {
      seen.push(req.url ?? '');
      const body = MODULES[new URL(req.url ?? '/', 'https://x').pathname];
      res.writeHead(body === undefined ? 404 : 200, { 'Content-Type': 'application/javascript' });
      res.end(body ?? 'not here');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  function script(name: string, code: string): string {
    const file = path.join(dir, name);
    writeFileSync(file, code);
    return file;
  }

  const trusted = () => ({ NODE_EXTRA_CA_CERTS: caFile });

  it("fetches a module once per run, with k6's _k6=1 marker, and its relative imports against its URL", async () => {
    seen.length = 0;
    const file = script(
      'ok.js',
      `import { greet } from '${base}/lib/greet.js';
import { shout } from '${base}/lib/util/shout.js?v=a%20b';
export const options = { iterations: 2 };
export default function () { console.log(greet('vu ' + __VU), shout('x')); }`,
    );
    const r = await runLoadlab(['-q', '--summary-mode=disabled', file], { env: trusted() });
    assert.equal(r.code, 0, r.stderr);
    assert.equal((r.stderr.match(/HELLO VU 1 X/g) ?? []).length, 2, r.stderr);
    // The marker is appended to a query as k6 appends it: the query itself is not re-encoded.
    assert.deepEqual(seen.sort(), [
      '/lib/greet.js?_k6=1',
      '/lib/util/shout.js?_k6=1',
      '/lib/util/shout.js?v=a%20b&_k6=1',
    ]);
  });

  it('maps an exception inside a remote module to its URL, as k6 prints it', async () => {
    const file = script(
      'throws.js',
      `import { boom } from '${base}/lib/greet.js';
export const options = { iterations: 1 };
export default function () { boom(); }`,
    );
    const r = await runLoadlab(['-q', '--summary-mode=disabled', file], { env: trusted() });
    assert.equal(r.code, 0, 'an exception in an iteration is logged and the run goes on');
    assert.match(r.stderr, new RegExp(`remote boom\\\\n\\\\tat boom \\(${base}/lib/greet\\.js:4:`));
  });

  it('a remote module with top-level await: init waits for it, and it is fetched once (both bundlings)', async () => {
    seen.length = 0;
    const file = script(
      'tla.js',
      `import { ready } from '${base}/lib/ready.js';
export const options = { iterations: 1 };
export default function () { console.log('remote says ' + ready); }`,
    );
    const r = await runLoadlab(['-q', '--summary-mode=disabled', file], { env: trusted() });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /remote says READY/);
    assert.deepEqual(seen.sort(), ['/lib/ready.js?_k6=1', '/lib/util/shout.js?_k6=1']);
  });

  it('jslib-shaped modules over https: the same log lines and handleSummary output as real k6', async function () {
    if (!realK6()) {
      console.warn('      skipped: no real k6 (../shared/tools/k6 or REAL_K6) beside this clone');
      this.skip();
    }
    seen.length = 0;
    const file = script(
      'jslib.js',
      `import { textSummary } from '${base}/lib/k6-summary/0.1.0/index.js';
import { randomItem } from '${base}/lib/k6-utils/1.4.0/index.js';
import { check } from 'k6';
export const options = { iterations: 3 };
export default function () {
  check(randomItem([1, 1]), { 'one': (v) => v === 1 });
  console.log('picked ' + randomItem(['a', 'a']));
}
export function handleSummary(data) {
  return { stdout: textSummary(data) };
}`,
    );
    // Go's TLS reads extra roots from SSL_CERT_FILE, Node from NODE_EXTRA_CA_CERTS.
    const k6 = await runLoadlab(['-q', file], { engine: 'k6', env: { SSL_CERT_FILE: caFile } });
    const fetchedByK6 = [...seen].sort();
    seen.length = 0;
    const runner = await runLoadlab(['-q', file], { env: trusted() });
    assert.equal(k6.code, 0, k6.stderr);
    assert.equal(runner.code, 0, runner.stderr);
    const lines = (stderr: string) =>
      stderr
        .split('\n')
        .filter((l) => l.startsWith('time='))
        .map((l) => l.replace(/^time="[^"]*" /, ''));
    assert.deepEqual(lines(runner.stderr), lines(k6.stderr));
    assert.equal(lines(k6.stderr).length, 3, k6.stderr);
    assert.equal(runner.stdout, k6.stdout);
    assert.equal(
      k6.stdout,
      'checks rate\ndata_received counter count=0\ndata_sent counter count=0\niteration_duration trend\niterations counter count=3\n',
    );
    // Both fetched the same modules (k6 v1.3 asks each URL with and without its _k6=1 marker).
    const paths = (urls: string[]) => [...new Set(urls.map((u) => u.split('?')[0]))].sort();
    assert.deepEqual(paths(seen), paths(fetchedByK6));
    assert.deepEqual(paths(fetchedByK6), [
      '/lib/k6-summary/0.1.0/format.js',
      '/lib/k6-summary/0.1.0/index.js',
      '/lib/k6-utils/1.4.0/index.js',
    ]);
  });

  /** Scripts that cannot be loaded, each on both settings of k6's dependency analysis. */
  const REFUSED: Record<string, (closedPort: number) => string> = {
    'missing-remote.js': () => `import x from '${base}/nope.js';\nexport default function () { x(); }`,
    'plain-http.js': (port) =>
      `import x from 'http://127.0.0.1:${port}/x.js';\nexport default function () { x(); }`,
    'inner-missing.js': () =>
      `import { broken } from '${base}/lib/broken.js';\nexport default function () { broken(); }`,
    'missing-local.js': () => `import x from './gone/x.js';\nexport default function () { x(); }`,
    'bare-name.js': () => `import x from 'lodash';\nexport default function () { x(); }`,
    'shorthand.js': () => `import x from 'github.com/grafana/k6/x.js';\nexport default function () { x(); }`,
    'syntax.js': () => `export default function () { let x = ; }`,
  };

  for (const analysis of ['', 'false'])
    it(`K6_AUTO_EXTENSION_RESOLUTION=${analysis || '(unset)'}: a script that cannot be loaded ends with k6's lines and exit code`, async function () {
      const k6 = realK6();
      const closed = net.createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
      const closedPort = (closed.address() as AddressInfo).port;
      await new Promise((r) => closed.close(r));
      const env = {
        NODE_EXTRA_CA_CERTS: caFile,
        SSL_CERT_FILE: caFile,
        ...(analysis ? { K6_AUTO_EXTENSION_RESOLUTION: analysis } : {}),
      };
      const lines = (stderr: string) =>
        stderr
          .split('\n')
          .filter((l) => l.startsWith('time='))
          .map((l) => l.replace(/^time="[^"]*" /, ''));
      const names = [...Object.keys(REFUSED), 'not-there.js'];
      for (const [name, code] of Object.entries(REFUSED)) script(name, code(closedPort));
      for (const name of names) {
        const ours = await runLoadlab(['-q', name], { cwd: dir, env });
        const got = { code: ours.code, lines: lines(ours.stderr) };
        assert.ok(got.lines.length > 0, ours.stderr);
        if (!k6) {
          assert.ok(got.code === 107 || got.code === 255, `${name}: ${ours.stderr}`);
          continue;
        }
        const theirs = await runLoadlab(['-q', name], { engine: 'k6', cwd: dir, env });
        const expected = { code: theirs.code, lines: lines(theirs.stderr) };
        // goja's parser, which k6's loader uses without the analysis, words a syntax error its own way.
        if (name === 'syntax.js' && analysis === 'false') {
          assert.deepEqual([got.code, got.lines.length], [expected.code, expected.lines.length], name);
          continue;
        }
        assert.deepEqual(got, expected, name);
      }
      if (!k6)
        console.warn('      compared with exit codes only: no real k6 (../shared/tools/k6 or REAL_K6)');
    });

  it('an untrusted certificate stops the run before it starts', async () => {
    const untrusted = await runLoadlab([
      '-q',
      script(
        'untrusted.js',
        `import { greet } from '${base}/lib/greet.js';\nexport default function () { greet('x'); }`,
      ),
    ]);
    assert.equal(untrusted.code, 255);
    assert.match(
      untrusted.stderr,
      /failed to analyze the dependencies.*Get \\"https:\/\/127\.0\.0\.1:\d+\/lib\/greet\.js\\": .*certificate/,
    );
  });

  it("refuses k6's old github.com/… shorthand as k6 v1.3 does: its analysis looks for a file (exit 255), its loader refuses (exit 107)", async () => {
    const file = script(
      'github.js',
      `import x from 'github.com/grafana/k6/x.js';\nexport default function () { x(); }`,
    );
    const analysed = await runLoadlab(['-q', file]);
    assert.equal(analysed.code, 255);
    assert.ok(
      analysed.stderr.includes(
        `opening file via launcher's bridge: open ${path.join(dir, 'github.com/grafana/k6/x.js')}: no such file or directory`,
      ),
      analysed.stderr,
    );
    const loaded = await runLoadlab(['-q', file], { env: { K6_AUTO_EXTENSION_RESOLUTION: 'false' } });
    assert.equal(loaded.code, 107);
    assert.match(
      loaded.stderr,
      /msg="GoError: github\.com 'special' urls are no longer supported - please use real ones\..*\\n" hint="script exception"/,
    );
  });
});
