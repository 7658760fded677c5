// The clinic as `CLINIC_DB=postgres npm run start:clinic` runs it: a database it cannot use stops
// it with one line and exit 2 before it listens; SIGTERM with writes in flight keeps every
// acknowledged write and closes the pool before exiting.
import assert from 'node:assert/strict';
import pg from 'pg';
import { freePort } from '../../devkit/processes.js';
import { startScript, untilHealthy, untilOutput, type ScriptProcess } from '../../devkit/script-process.js';
import { startClinic } from './main.js';
import { findPostgresBin, startPgServer } from '../../devkit/postgres.js';
import { testDatabaseUrl } from './store/test-stores.js';

const owner = (lastName: string) =>
  JSON.stringify({
    firstName: 'Ada',
    lastName,
    address: '12 Analytical St.',
    city: 'London',
    telephone: '6085550000',
  });

/** main.ts in an empty folder (no .env read), the open instance only, with `env`. */
function run(env: Record<string, string>): ScriptProcess {
  return startScript('services/clinic/main.ts', {
    env: { CLINIC_INSTANCE: 'open', CLINIC_HOST: '127.0.0.1', ...env },
  });
}

/** A new empty database on the test cluster (a database each, so tests never share a schema). */
async function newDatabase(url: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

describe('clinic process on PostgreSQL (main.ts)', function () {
  this.timeout(90_000);

  it('exits 2 with one line, before listening, on a bad DATABASE_URL or an unreachable server', async () => {
    const bad = run({ CLINIC_DB: 'postgres', DATABASE_URL: 'not a url', CLINIC_PORT: '0' });
    assert.equal(await bad.exit, 2);
    assert.match(bad.err(), /^clinic: DATABASE_URL is not a URL[^\n]*\n$/);

    const port = await freePort();
    const gone = run({
      CLINIC_DB: 'postgres',
      DATABASE_URL: `postgresql://clinic:topsecret@127.0.0.1:${port}/clinic`,
      CLINIC_PORT: '0',
    });
    assert.equal(await gone.exit, 2);
    assert.match(
      gone.err(),
      new RegExp(`^clinic: cannot use the database at 127\\.0\\.0\\.1:${port}: [^\\n]+\\n$`),
    );
    assert.doesNotMatch(gone.err(), /topsecret/, 'the password is never printed');
    assert.doesNotMatch(gone.out(), /listening/);
  });

  it('takes the password from PGPASSWORD, any characters, as compose passes it; says so when none is given', async function () {
    const bin = findPostgresBin();
    if (!bin) this.skip();
    // A password a URL would need escaping for: compose passes it beside DATABASE_URL, not in it.
    const password = 'p@ss/w:rd#?% x';
    const server = await startPgServer(bin!, { password });
    try {
      const url = new URL(server.url);
      url.password = '';
      const env = { CLINIC_DB: 'postgres', DATABASE_URL: url.toString(), CLINIC_PORT: '0' };
      const none = run(env);
      assert.equal(await none.exit, 2);
      assert.match(
        none.err(),
        /^clinic: cannot use the database at [^\n]*: the server asks for a password[^\n]*\n$/,
      );
      const wrong = run({ ...env, PGPASSWORD: 'not-it' });
      assert.equal(await wrong.exit, 2);
      assert.match(wrong.err(), /^clinic: [^\n]*password authentication failed[^\n]*\n$/);
      const right = run({ ...env, PGPASSWORD: password });
      try {
        await untilOutput(right, /listening/, 60_000);
      } finally {
        right.child.kill('SIGTERM');
      }
      assert.equal(await right.exit, 0, right.err());
      assert.doesNotMatch(right.out() + right.err(), /p@ss/, 'the password is never printed');
    } finally {
      await server.stop();
    }
  });

  it('serves both instances from their own schemas and closes the pool on close()', async function () {
    const url = await testDatabaseUrl();
    if (!url) this.skip();
    const db = await newDatabase(url!, `clinic_start_${process.pid}`);
    const servers = await startClinic({
      CLINIC_DB: 'postgres',
      DATABASE_URL: db,
      CLINIC_PORT: '0',
      CLINIC_SECURE_PORT: '0',
      ADMIN_PASSWORD: 'p',
      NODE_ENV: 'test',
    });
    try {
      assert.deepEqual(
        servers.map((s) => s.store.kind),
        ['postgres', 'postgres'],
      );
      const [open, secure] = servers;
      const created = await fetch(`${open!.url}/petclinic/api/owners`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: owner('Lovelace'),
      });
      assert.equal(created.status, 201);
      const id = ((await created.json()) as { id: number }).id;
      const auth = { authorization: `Basic ${Buffer.from('admin:p').toString('base64')}` };
      assert.equal((await fetch(`${secure!.url}/petclinic/api/owners/${id}`, { headers: auth })).status, 404);
      assert.equal((await fetch(`${open!.url}/petclinic/api/owners/${id}`)).status, 200);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
    for (const s of servers) assert.deepEqual(s.store.poolStats!(), { total: 0, idle: 0, waiting: 0 });
  });

  it('loses no acknowledged write when SIGTERM arrives with 60 writes in flight', async function () {
    const url = await testDatabaseUrl();
    if (!url) this.skip();
    const db = await newDatabase(url!, `clinic_sigterm_${process.pid}`);
    const port = await freePort();
    const clinic = run({ CLINIC_DB: 'postgres', DATABASE_URL: db, CLINIC_PORT: String(port) });
    const base = `http://127.0.0.1:${port}/petclinic/api`;
    await untilHealthy(clinic, `${base}/actuator/health`, 60_000);
    const name = (i: number) => `Term${String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26))}`;
    let first!: () => void;
    const firstAnswer = new Promise<void>((resolve) => (first = resolve));
    const writes = Array.from({ length: 60 }, (_, i) =>
      fetch(`${base}/owners`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: owner(name(i)),
      }).then(
        async (res) => {
          first();
          return res.status === 201 ? { i, id: ((await res.json()) as { id: number }).id } : undefined;
        },
        () => undefined, // refused after the signal: never acknowledged
      ),
    );
    await firstAnswer;
    clinic.child.kill('SIGTERM');
    const acknowledged = (await Promise.all(writes)).filter((w) => w !== undefined);
    assert.equal(await clinic.exit, 0, clinic.err());
    assert.match(clinic.out(), /stopped/);
    assert.ok(acknowledged.length > 0);

    const check = new pg.Client({ connectionString: db });
    await check.connect();
    try {
      const { rows } = await check.query<{ id: number; last_name: string }>(
        "SELECT id, last_name FROM clinic_open.owners WHERE last_name LIKE 'Term%'",
      );
      assert.equal(new Set(rows.map((r) => r.id)).size, rows.length, 'no id repeats');
      for (const { i, id } of acknowledged) {
        assert.deepEqual(
          rows.filter((r) => r.last_name === name(i)).map((r) => r.id),
          [id],
          `${name(i)} stored once under its acknowledged id`,
        );
      }
      const { rows: left } = await check.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      assert.equal(left[0].n, 0, 'the clinic closed its connections');
    } finally {
      await check.end();
    }
  });
  it('drains on SIGTERM that comes before the secured instance listens', async function () {
    const url = await testDatabaseUrl();
    if (!url) this.skip();
    const db = await newDatabase(url!, `clinic_early_${process.pid}`);
    const [port, securePort] = [await freePort(), await freePort()];
    // The secured instance's migration waits on this advisory lock (migrate.ts keys it on the schema),
    // so the open instance listens alone for as long as the test holds it.
    const holder = new pg.Client({ connectionString: db });
    await holder.connect();
    await holder.query("SELECT pg_advisory_lock(hashtext('clinic_secure'))");
    const clinic = run({
      CLINIC_INSTANCE: 'both',
      CLINIC_DB: 'postgres',
      DATABASE_URL: db,
      CLINIC_PORT: String(port),
      CLINIC_SECURE_PORT: String(securePort),
      ADMIN_PASSWORD: 'early-Strong-Secret-1',
    });
    const base = `http://127.0.0.1:${port}/petclinic/api`;
    const locker = new pg.Client({ connectionString: db });
    try {
      await untilHealthy(clinic, `${base}/actuator/health`, 60_000);
      // A request in flight when the signal comes: it waits on a table lock the test releases later.
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE clinic_open.owners IN ACCESS EXCLUSIVE MODE');
      const inFlight = fetch(`${base}/owners/1`).then(
        (r) => r.status,
        (e: Error) => e.message,
      );
      await new Promise((r) => setTimeout(r, 300));
      clinic.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      await locker.query('ROLLBACK');
      assert.equal(await inFlight, 200, 'the request in flight is answered, not reset');
      assert.equal(await clinic.exit, 0, `exit code (null: killed by the signal) ${clinic.err()}`);
      assert.match(clinic.out(), /draining/);
    } finally {
      clinic.child.kill('SIGKILL');
      await locker.end().catch(() => {});
      await holder.end();
    }
  });
});
