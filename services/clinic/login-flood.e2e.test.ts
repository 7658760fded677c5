// Through real sockets: wrong-password floods that are pipelined and closed at
// once, or spread over hundreds of connections that leave, cost a handful of derivations (not one
// per request), a flood on one user is refused with 429 + Retry-After past its budget, and a valid
// user's first login still gets through. Counts of derivations, not times: the machine is shared.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { createClinicApp } from './app.js';
import { loadContract } from './contract.js';
import { CHECK_LIMITS, createPasswordChecker, hashPassword, ROLES } from './security.js';
import { listen, type StartedServer } from '../shared/server.js';
import { createMemoryStore } from './store/memory.js';

const contract = loadContract();
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const ADMIN = { securityEnabled: true, adminUser: 'boss', adminPassword: 'flood-Strong-Secret-1' };
const PATH = '/petclinic/api/owners/1';

const get = (user: string, password: string) =>
  `GET ${PATH} HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic(user, password)}\r\n\r\n`;

/** Writes `bytes` on a new connection and closes it at once, without reading an answer. */
function sendAndLeave(port: number, bytes: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(bytes, () => (socket.destroy(), resolve())));
    socket.on('error', reject);
  });
}

/** Until the queue has neither running nor waiting checks (bounded: 10 s). */
async function settle(checker: ReturnType<typeof createPasswordChecker>): Promise<void> {
  for (const until = Date.now() + 10_000; Date.now() < until;) {
    const { running, waiting } = checker.queue.stats();
    if (running === 0 && waiting === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`queue not empty after 10 s: ${JSON.stringify(checker.queue.stats())}`);
}

describe('password floods through real sockets', function () {
  this.timeout(60_000);
  let server: StartedServer;
  let port: number;
  const checker = createPasswordChecker();
  const store = createMemoryStore({ seeded: true });

  before(async () => {
    const app = createClinicApp(ADMIN, { contract, store, checker });
    await app.locals.ready;
    let n = 0;
    for (const name of ['valid1', 'valid2', 'valid3'])
      await store.users.insert({
        username: name,
        passwordHash: hashPassword(`${name}-Secret-${++n}`),
        enabled: true,
        roles: [ROLES.OWNER_ADMIN],
      });
    server = await listen(app, 0, '127.0.0.1');
    port = Number(new URL(server.url).port);
  });
  after(() => server.close());

  const login = (user: string, password: string) =>
    fetch(`${server.url}${PATH}`, { headers: { authorization: basic(user, password) } });

  it('1,000 pipelined wrong passwords on 2 connections, closed at once: a few derivations, then a valid login', async () => {
    const before = checker.derivations;
    await Promise.all(
      [0, 1].map((c) =>
        sendAndLeave(port, Array.from({ length: 500 }, (_, i) => get('boss', `wrong-${c}-${i}`)).join('')),
      ),
    );
    await settle(checker);
    const spent = checker.derivations - before;
    assert.ok(spent <= CHECK_LIMITS.perUser + 1, `${spent} derivations for 1,000 abandoned requests`);
    assert.equal((await login('valid1', 'valid1-Secret-1')).status, 200);
  });

  it('300 connections that each send a wrong password and leave: no derivation queue left behind', async () => {
    const before = checker.derivations;
    await Promise.all(Array.from({ length: 300 }, (_, i) => sendAndLeave(port, get(`nobody${i}`, 'wrong'))));
    await settle(checker);
    const spent = checker.derivations - before;
    assert.ok(spent < CHECK_LIMITS.perClient, `${spent} derivations for 300 departed clients`);
    assert.equal((await login('valid2', 'valid2-Secret-2')).status, 200);
  });

  it('a flood that stays connected on one user: 429 + Retry-After past its budget, others still log in', async () => {
    const flood = Array.from({ length: 40 }, (_, i) => login('boss', `wrong-${i}`));
    const valid = login('valid3', 'valid3-Secret-3');
    const answers = await Promise.all(flood);
    const statuses = answers.map((r) => r.status);
    assert.ok(
      statuses.every((s) => s === 401 || s === 429),
      String(statuses),
    );
    const refused = answers.filter((r) => r.status === 429);
    // Slots free up while the flood arrives, so a few more than perUser get checked; most do not.
    assert.ok(refused.length >= 20, `${refused.length} of 40 refused`);
    for (const r of refused) assert.match(r.headers.get('retry-after') ?? '', /^\d+$/);
    assert.equal((await valid).status, 200);
  });
});
