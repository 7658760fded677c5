import assert from 'node:assert/strict';
import { ConfigError, clinicConfigFromEnv, clinicDbFromEnv } from './config.js';
import { startClinic } from './main.js';
import { startScript } from '../../devkit/script-process.js';

describe('clinic config', () => {
  it('reads CLINIC_SECURITY_ENABLE and upstream PETCLINIC_SECURITY_ENABLE', () => {
    assert.equal(clinicConfigFromEnv({}).securityEnabled, false);
    assert.equal(
      clinicConfigFromEnv({ PETCLINIC_SECURITY_ENABLE: 'true', ADMIN_PASSWORD: 'x' }).securityEnabled,
      true,
    );
    assert.equal(
      clinicConfigFromEnv({ CLINIC_SECURITY_ENABLE: 'TRUE', ADMIN_PASSWORD: 'x' }).securityEnabled,
      true,
    );
    assert.equal(
      clinicConfigFromEnv({
        CLINIC_SECURITY_ENABLE: '',
        PETCLINIC_SECURITY_ENABLE: 'true',
        ADMIN_PASSWORD: 'x',
      }).securityEnabled,
      true,
      'an empty CLINIC_SECURITY_ENABLE counts as unset',
    );
    assert.equal(
      clinicConfigFromEnv({ CLINIC_SECURITY_ENABLE: 'false', PETCLINIC_SECURITY_ENABLE: 'true' })
        .securityEnabled,
      false,
      "the clinic's own variable wins",
    );
    assert.throws(() => clinicConfigFromEnv({ CLINIC_SECURITY_ENABLE: 'yes' }), ConfigError);
  });

  it('refuses a secured instance without an admin password, in one line', () => {
    assert.throws(
      () => clinicConfigFromEnv({ CLINIC_SECURITY_ENABLE: 'true' }),
      (e: Error) => e instanceof ConfigError && !e.message.includes('\n'),
    );
  });

  it('refuses a placeholder or default admin password unless LOADLAB_THROWAWAY_DEMO=true', () => {
    for (const ADMIN_PASSWORD of ['<choose-a-password>', 'admin', 'password'])
      assert.throws(
        () => clinicConfigFromEnv({ CLINIC_SECURITY_ENABLE: 'true', ADMIN_PASSWORD }),
        (e: Error) => e instanceof ConfigError && /^ADMIN_PASSWORD /.test(e.message),
      );
    const demo = { CLINIC_SECURITY_ENABLE: 'true', ADMIN_PASSWORD: 'admin', LOADLAB_THROWAWAY_DEMO: 'true' };
    assert.equal(clinicConfigFromEnv(demo).adminPassword, 'admin');
    // The open instance has no password to check.
    assert.equal(clinicConfigFromEnv({ ADMIN_PASSWORD: 'admin' }).securityEnabled, false);
  });

  it('the clinic process exits 2 with one line on a default admin password', async () => {
    const clinic = startScript('services/clinic/main.ts', {
      env: { CLINIC_PORT: '0', CLINIC_SECURE_PORT: '0', ADMIN_PASSWORD: 'admin' },
      killAfterMs: 60_000,
    });
    const code = await clinic.closed;
    const stderr = clinic.err();
    assert.equal(code, 2);
    assert.match(stderr, /^clinic: ADMIN_PASSWORD is a well-known default password[^\n]*\n$/);
  });

  it('reads CLINIC_METRICS_AUTH as true or false', () => {
    const secure = { CLINIC_SECURITY_ENABLE: 'true', ADMIN_PASSWORD: 'p' };
    assert.equal(clinicConfigFromEnv(secure).protectMetrics, false);
    assert.equal(clinicConfigFromEnv({ ...secure, CLINIC_METRICS_AUTH: 'true' }).protectMetrics, true);
    assert.throws(() => clinicConfigFromEnv({ ...secure, CLINIC_METRICS_AUTH: 'on' }), ConfigError);
  });

  it('reads CLINIC_DB and DATABASE_URL: memory by default, a schema per instance on postgres', () => {
    assert.deepEqual(clinicDbFromEnv({}, false), { kind: 'memory' });
    const url = 'postgresql://clinic:pw@127.0.0.1:5432/clinic';
    assert.deepEqual(clinicDbFromEnv({ CLINIC_DB: 'postgres', DATABASE_URL: url }, false), {
      kind: 'postgres',
      url,
      schema: 'clinic_open',
    });
    assert.equal(clinicDbFromEnv({ CLINIC_DB: 'postgres', DATABASE_URL: url }, true).kind, 'postgres');
    assert.equal(
      (clinicDbFromEnv({ CLINIC_DB: 'postgres', DATABASE_URL: url }, true) as { schema: string }).schema,
      'clinic_secure',
    );
    for (const env of [
      { CLINIC_DB: 'mysql' },
      { CLINIC_DB: 'postgres' },
      { CLINIC_DB: 'postgres', DATABASE_URL: 'nope' },
      { CLINIC_DB: 'postgres', DATABASE_URL: 'mysql://h/db' },
      {
        CLINIC_DB: 'postgres',
        DATABASE_URL: 'postgresql://clinic:<choose-a-password>@127.0.0.1:5432/clinic',
      },
    ])
      assert.throws(
        () => clinicDbFromEnv(env, false),
        (e: Error) => e instanceof ConfigError && !e.message.includes('\n'),
        JSON.stringify(env),
      );
  });

  it('starts both instances on their ports, each answering health', async () => {
    const servers = await startClinic({
      CLINIC_PORT: '0',
      CLINIC_SECURE_PORT: '0',
      ADMIN_PASSWORD: 'p',
      NODE_ENV: 'test',
    });
    try {
      assert.equal(servers.length, 2);
      for (const s of servers) {
        const health = (await (await fetch(`${s.url}/petclinic/actuator/health`)).json()) as {
          status: string;
        };
        assert.equal(health.status, 'UP');
      }
      assert.equal((await fetch(`${servers[1]!.url}/petclinic/api/owners`)).status, 401);
      assert.equal((await fetch(`${servers[0]!.url}/petclinic/api/owners`)).status, 200);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });
});
