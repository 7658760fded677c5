// The error-simulation helper through the recording k6 fakes: the request, its tags, the status it
// marks expected, its checks; and the LT_FAULT_* headers every sandbox request then carries.
import assert from 'node:assert/strict';
import { loadScript, type TraceEvent } from '../testing/fake-k6.js';

const BASE = 'http://sandbox.test';
type Request = Extract<TraceEvent, { kind: 'request' }>;
const requests = (trace: TraceEvent[]) => trace.filter((e): e is Request => e.kind === 'request');
const checks = (trace: TraceEvent[]) =>
  Object.fromEntries(trace.flatMap((e) => (e.kind === 'check' ? [[e.name, e.ok] as const] : [])));

describe('k6 error simulation helper', function () {
  this.timeout(20_000);

  for (const status of [404, 422] as const) {
    it(`simulateError(${status}): GET /api/errors/${status}, ${status} expected, checked`, async () => {
      const s = await loadScript('k6/lib/errors.ts', {}, () => ({
        status,
        body: { title: 'x' },
        headers: { 'Content-Type': 'application/problem+json; charset=utf-8' },
      }));
      (s.module.simulateError as (base: string, status: number) => unknown)(BASE, status);
      const [request] = requests(s.trace);
      assert.equal(request!.url, `${BASE}/api/errors/${status}`);
      assert.deepEqual(request!.tags, { endpoint: 'errors', name: `GET /api/errors/${status}` });
      assert.deepEqual(request!.expected, [status]);
      assert.deepEqual(request!.headers, {});
      assert.deepEqual(checks(s.trace), {
        [`simulated ${status} answered`]: true,
        'simulated error is problem+json': true,
      });
    });
  }

  it('a 200 where an error was asked for fails the checks', async () => {
    const s = await loadScript('k6/lib/errors.ts', {}, () => ({ status: 200, body: {} }));
    (s.module.simulateError as (base: string, status: number) => unknown)(BASE, 404);
    assert.deepEqual(checks(s.trace), {
      'simulated 404 answered': false,
      'simulated error is problem+json': false,
    });
  });

  it('LT_FAULT_* puts the x-fault-* headers on every sandbox request, next to its own headers', async () => {
    const s = await loadScript('k6/lib/errors.ts', { LT_FAULT_ERROR_RATE: '0.3', LT_FAULT_LATENCY_MS: '50' });
    const lib = await loadScript('k6/lib/requests.ts', {
      LT_FAULT_ERROR_RATE: '0.3',
      LT_FAULT_LATENCY_MS: '50',
    });
    (s.module.simulateError as (base: string, status: number) => unknown)(BASE, 422);
    const helpers = lib.module as unknown as Record<string, (...args: string[]) => unknown>;
    helpers.getHealth!(BASE);
    helpers.getUsers!(BASE, 'tok');
    helpers.getStaticPage!(BASE, 'team');
    helpers.login!(BASE, 'e', 'p');
    const faults = { 'x-fault-error-rate': '0.3', 'x-fault-latency-ms': '50' };
    assert.deepEqual(
      [...requests(s.trace), ...requests(lib.trace)].map((r) => r.headers),
      [
        faults,
        faults,
        { ...faults, Authorization: 'Bearer tok' },
        faults,
        { ...faults, 'Content-Type': 'application/json' },
      ],
    );
  });
});
