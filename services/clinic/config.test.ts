import assert from 'node:assert/strict';
import { ConfigError, clinicConfigFromEnv } from './config.js';
import { startClinic } from './main.js';

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
