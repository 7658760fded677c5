// Which host runs a script's VUs: shared isolates unless the script needs Node, or the addon cannot be had.
import assert from 'node:assert/strict';
import { chooseVuHost, vuHostEnvError, workerOnlyReason } from './vu-host-choice.js';
import { NODE_BOUND_MODULES, PROMISE_MODULES } from '../bridge/worker-host-modules.js';

const bundle = (code: string, k6Imports: string[] = []) => ({ code, scriptDir: '/tmp', k6Imports });

describe('runner/host/vu-host-choice: isolates or workers', () => {
  it('a plain http/check/sleep script needs nothing of Node', () => {
    const code = 'var r = http.get(url); check(r, { ok: (x) => x.status === 200 }); sleep(1);';
    assert.equal(workerOnlyReason(bundle(code, ['k6', 'k6/http'])), undefined);
  });

  it('names why a script needs a worker: a Node-bound module, WebCrypto, a thrown literal, a promise module', () => {
    assert.ok(NODE_BOUND_MODULES.includes('k6/net/grpc') && PROMISE_MODULES.includes('k6/experimental/csv'));
    for (const module of NODE_BOUND_MODULES)
      assert.equal(workerOnlyReason(bundle('', ['k6', module])), `the script imports ${module}`);
    assert.equal(workerOnlyReason(bundle('crypto.subtle.digest("SHA-256", b)')), 'the script uses WebCrypto');
    assert.equal(workerOnlyReason(bundle('crypto.getRandomValues(a)')), 'the script uses WebCrypto');
    assert.equal(
      workerOnlyReason(bundle('const doc = res.html(); doc.find("a")')),
      'the script parses HTML (Response.html())',
    );
    assert.equal(
      workerOnlyReason(bundle('throw "bad"')),
      'the script may throw a value that is not an Error',
    );
    for (const module of ['k6/experimental/fs', 'k6/experimental/csv', 'k6/secrets'])
      assert.equal(
        workerOnlyReason(bundle('', [module])),
        `the script imports ${module}, whose calls return promises`,
      );
    // k6/crypto's hashes are served in the isolate
    assert.equal(workerOnlyReason(bundle('crypto.sha256("x", "hex")', ['k6/crypto'])), undefined);
  });

  it('asynchronous code needs no worker: the shared isolates run it', () => {
    for (const code of ['async function f() {}', 'await x', 'new Promise(r)', 'p.then (f)'])
      assert.equal(workerOnlyReason(bundle(code)), undefined, code);
  });

  it('workers when asked for', async () => {
    const worker = await chooseVuHost(bundle('sleep(1)'), { LOADLAB_VU_HOST: 'worker' });
    assert.deepEqual([worker.name, worker.reason], ['worker', 'LOADLAB_VU_HOST=worker']);
  });

  it('LOADLAB_VU_HOST and LOADLAB_VUS_PER_ISOLATE: one line for a value that cannot be used', () => {
    for (const ok of [
      {},
      { LOADLAB_VU_HOST: 'shared', LOADLAB_VUS_PER_ISOLATE: '1' },
      { LOADLAB_VU_HOST: 'worker' },
    ])
      assert.equal(vuHostEnvError(ok), undefined, JSON.stringify(ok));
    assert.equal(
      vuHostEnvError({ LOADLAB_VU_HOST: 'threads' }),
      "LOADLAB_VU_HOST must be one of shared, worker, not 'threads'",
    );
    assert.equal(
      vuHostEnvError({ LOADLAB_VU_HOST: 'isolate' }),
      "LOADLAB_VU_HOST must be one of shared, worker, not 'isolate'",
    );
    for (const bad of ['0', '1001', '2.5', '-1', 'ten', ' 4'])
      assert.equal(
        vuHostEnvError({ LOADLAB_VUS_PER_ISOLATE: bad }),
        `LOADLAB_VUS_PER_ISOLATE must be a whole number from 1 to 1000, not '${bad}'`,
      );
  });
});
