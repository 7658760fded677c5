// The request helpers' checks, by their exact spec names, at the edges of what each one judges:
// status, body shape, content type and the duration limits (1000 ms, 2000 ms).
import assert from 'node:assert/strict';
import { loadScript, type FakeResponse, type TraceEvent } from '../testing/fake-k6.js';

type Helpers = {
  getHealth: (base: string) => unknown;
  getUsers: (base: string, token?: string) => unknown;
  getStaticPage: (base: string, page: string) => unknown;
  login: (base: string, email: string, password: string) => { token?: string };
};

const BASE = 'http://sandbox.test';

/** The checks one helper call records, as `name=ok`, with every request answered by `answer`. */
async function checksOf(
  call: (h: Helpers) => unknown,
  answer: FakeResponse,
): Promise<Record<string, boolean>> {
  const s = await loadScript('k6/lib/requests.ts', {}, () => answer);
  call(s.module as unknown as Helpers);
  return Object.fromEntries(
    s.trace.flatMap((e: TraceEvent) => (e.kind === 'check' ? [[e.name, e.ok] as const] : [])),
  );
}

describe('k6 request helpers (checks)', function () {
  this.timeout(20_000);

  it('health: `health status 200` and `health responds quickly` (< 1000 ms)', async () => {
    const health = (h: Helpers) => h.getHealth(BASE);
    assert.deepEqual(await checksOf(health, { status: 200, body: { status: 'ok' }, duration: 999 }), {
      'health status 200': true,
      'health responds quickly': true,
    });
    assert.deepEqual(await checksOf(health, { status: 503, duration: 1000 }), {
      'health status 200': false,
      'health responds quickly': false,
    });
  });

  it('users: status 200, a non-empty users array, within 2s (< 2000 ms)', async () => {
    const users = (h: Helpers) => h.getUsers(BASE, 't');
    assert.deepEqual(await checksOf(users, { status: 200, body: { users: [{}] }, duration: 1999 }), {
      'users status 200': true,
      'users has array': true,
      'users responds within 2s': true,
    });
    assert.deepEqual(await checksOf(users, { status: 200, body: { users: [] }, duration: 2000 }), {
      'users status 200': true,
      'users has array': false,
      'users responds within 2s': false,
    });
    assert.equal((await checksOf(users, { status: 200, body: 'not json' }))['users has array'], false);
  });

  it('static page: status 200 and a text/html Content-Type', async () => {
    const page = (h: Helpers) => h.getStaticPage(BASE, 'team');
    assert.deepEqual(
      await checksOf(page, {
        status: 200,
        body: '<p>',
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
      }),
      { 'static page status 200': true, 'static page has html': true },
    );
    assert.deepEqual(
      await checksOf(page, { status: 404, body: '{}', headers: { 'Content-Type': 'application/json' } }),
      {
        'static page status 200': false,
        'static page has html': false,
      },
    );
  });

  it('login: status 200 and a string token', async () => {
    const login = (h: Helpers) => h.login(BASE, 'e', 'p');
    assert.deepEqual(await checksOf(login, { status: 200, body: { token: 'abc' } }), {
      'login status 200': true,
      'login has token': true,
    });
    assert.deepEqual(await checksOf(login, { status: 401, body: { token: 42 } }), {
      'login status 200': false,
      'login has token': false,
    });
  });
});
