// The worker host (worker-host.ts, LOADLAB_VU_HOST=worker) seen from outside: a VU that runs out of
// memory loses its worker only, as a VU isolate loses its isolate (isolate-host.e2e.test.ts).
import { assertVuLoopsOn, assertVuLostAlone } from '../testing/vu-out-of-memory.js';

describe('runner/host: VUs in worker threads', function () {
  this.timeout(180_000);

  it('fixtures/out-of-memory.js: a worker past its heap limit loses its iteration with one line; the others and the summary carry on', async () => {
    await assertVuLostAlone({ LOADLAB_VU_HOST: 'worker' });
  });

  it('fixtures/out-of-memory-loop.js: a looping VU that runs out of memory iterates on in a fresh worker', async () => {
    await assertVuLoopsOn({ LOADLAB_VU_HOST: 'worker' });
  });
});
