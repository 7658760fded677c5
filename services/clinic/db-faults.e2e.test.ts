// On a real PostgreSQL cluster of its own: a locked table, a frozen server
// (SIGSTOP) and a stopped one answer 503 with Retry-After within the configured timeouts (never 500,
// never a hang, never "Bad credentials"), health reports the database while liveness stays UP, and
// the clinic recovers without a restart once the server is back.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import request from 'supertest';
import { createClinicApp, type ClinicApp } from './app.js';
import { loadContract } from './contract.js';
import { hashPassword, ROLES } from './security.js';
import { findPostgresBin, startPgServer, type PgServer } from '../../devkit/postgres.js';
import { createPostgresStore } from './store/postgres.js';
import type { ClinicStore } from './store/types.js';
import { API, checkedClient, type CheckedClient } from './test-client.js';

const contract = loadContract();
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const ADMIN = { securityEnabled: true, adminUser: 'boss', adminPassword: 'faults-Strong-Secret-1' };
// Short timeouts, so the test waits little; the defaults (store/postgres.ts DB_TIMEOUTS) are longer.
const TIMEOUTS = { acquire: 500, statement: 1000, lock: 400, read: 1500 };

/** The postmaster and its backends (children), to freeze the whole server as SIGSTOP on it would. */
function serverProcesses(postmaster: number): number[] {
  const children = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        // Field 4 of /proc/<pid>/stat is the parent; the name in field 2 may hold spaces.
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

function expect503(res: request.Response): void {
  assert.equal(res.status, 503, `${res.status} ${JSON.stringify(res.body)}`);
  assert.match(String(res.headers['retry-after']), /^\d+$/);
  assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
}

describe('clinic on a failing PostgreSQL', function () {
  this.timeout(120_000);
  let server: PgServer | undefined;
  let stopped = false;
  let store: ClinicStore;
  let open: ClinicApp;
  let secure: ClinicApp;
  let o: CheckedClient;
  let s: CheckedClient;

  before(async function () {
    const bin = findPostgresBin();
    if (!bin) {
      console.log('      skipped: no PostgreSQL binaries (initdb, postgres; apt-get install postgresql)');
      this.skip();
    }
    server = await startPgServer(bin!);
    store = await createPostgresStore({ url: server.url, schema: 'faults', timeouts: TIMEOUTS });
    const secureStore = await createPostgresStore({
      url: server.url,
      schema: 'faults_secure',
      timeouts: TIMEOUTS,
    });
    open = createClinicApp({ securityEnabled: false }, { contract, store });
    secure = createClinicApp(ADMIN, { contract, store: secureStore });
    await secure.locals.ready;
    await secureStore.users.insert({
      username: 'ulla',
      passwordHash: hashPassword('ulla-Secret-1'),
      enabled: true,
      roles: [ROLES.OWNER_ADMIN],
    });
    o = checkedClient(open);
    s = checkedClient(secure);
  });

  after(async () => {
    if (!server) return;
    if (!stopped) for (const pid of serverProcesses(server.pid)) process.kill(pid, 'SIGCONT');
    await store?.close();
    await secure?.locals.store.close();
    await server.stop();
  });

  it('answers 503 for a table locked past lock_timeout, and serves the other tables meanwhile', async () => {
    const locker = new pg.Client({ connectionString: server!.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE faults.owners IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          i % 2
            ? o.get(`${API}/owners/1`)
            : o.post(`${API}/owners`).send({
                firstName: 'Lock',
                lastName: 'Ed',
                address: '1 Lock St.',
                city: 'Locktown',
                telephone: '6085550000',
              }),
        ),
      );
      for (const res of answers) expect503(res);
      assert.ok(Date.now() - started < 10_000, 'answered within the timeouts, not when the lock ended');
      await o.get(`${API}/pettypes`).expect(200);
      await o.get('/petclinic/actuator/health').expect(200);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    await o.get(`${API}/owners/1`).expect(200);
  });

  it('answers 503 while the server is frozen, for reads, writes and logins alike; health says DOWN', async () => {
    // boss is verified and cached before the freeze, ulla is not.
    await s.get(`${API}/owners/1`).set('Authorization', basic('boss', ADMIN.adminPassword)).expect(200);
    const pids = serverProcesses(server!.pid);
    for (const pid of pids) process.kill(pid, 'SIGSTOP');
    try {
      const started = Date.now();
      const [read, write, cached, uncached] = await Promise.all([
        o.get(`${API}/owners/1`),
        o.post(`${API}/pettypes`).send({ name: 'frozen' }),
        s.get(`${API}/owners/1`).set('Authorization', basic('boss', ADMIN.adminPassword)),
        s.get(`${API}/owners/1`).set('Authorization', basic('ulla', 'ulla-Secret-1')),
      ]);
      for (const res of [read, write, cached, uncached]) expect503(res);
      assert.ok(Date.now() - started < 10_000, `answered after ${Date.now() - started} ms`);
      const health = await o.get('/petclinic/actuator/health').expect(503);
      assert.deepEqual(health.body, { status: 'DOWN', components: { db: { status: 'DOWN' } } });
      await o.get('/petclinic/actuator/health/readiness').expect(503);
      await o.get('/petclinic/actuator/health/liveness').expect(200);
    } finally {
      for (const pid of pids) process.kill(pid, 'SIGCONT');
    }
    // Back without a restart: the broken connections were dropped, new ones work.
    await o.get(`${API}/owners/1`).expect(200);
    await s.get(`${API}/owners/1`).set('Authorization', basic('ulla', 'ulla-Secret-1')).expect(200);
    await o.get('/petclinic/actuator/health').expect(200);
  });

  it('answers 503 when the server is gone: no 500, no 401 for a valid user', async () => {
    // Fast shutdown (SIGINT): a smart one would wait for the pool's idle connections to leave.
    process.kill(server!.pid, 'SIGINT');
    await server!.stop();
    stopped = true;
    const answers = await Promise.all([
      o.get(`${API}/owners`),
      o.get(`${API}/vets`),
      o.put(`${API}/owners/1`).send({
        firstName: 'Gone',
        lastName: 'Away',
        address: '1 Gone St.',
        city: 'Nowhere',
        telephone: '6085550000',
      }),
      s.get(`${API}/owners/1`).set('Authorization', basic('ulla', 'ulla-Secret-1')),
      s.get(`${API}/owners/1`).set('Authorization', basic('boss', ADMIN.adminPassword)),
    ]);
    for (const res of answers) expect503(res);
    const health = await o.get('/petclinic/actuator/health').expect(503);
    assert.equal(health.body.status, 'DOWN');
  });
});
