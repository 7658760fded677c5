import assert from 'node:assert/strict';
import { clinicConfig, suiteConfig } from './config.js';

describe('k6 config (from __ENV only)', () => {
  it('defaults BASE_URL to http://localhost:5050 and takes the credentials from the environment', () => {
    assert.deepEqual(suiteConfig({ DEMO_EMAIL: 'e@x.test', DEMO_PASSWORD: 'p' }), {
      baseUrl: 'http://localhost:5050',
      email: 'e@x.test',
      password: 'p',
    });
    assert.equal(
      suiteConfig({ BASE_URL: 'http://h:1/', DEMO_EMAIL: 'e', DEMO_PASSWORD: 'p' }).baseUrl,
      'http://h:1',
    );
  });

  it('refuses missing or empty credentials with one line naming both variables', () => {
    for (const env of [
      {},
      { DEMO_EMAIL: 'e' },
      { DEMO_PASSWORD: 'p' },
      { DEMO_EMAIL: '', DEMO_PASSWORD: 'p' },
    ]) {
      assert.throws(
        () => suiteConfig(env),
        (e: Error) =>
          /^DEMO_EMAIL and DEMO_PASSWORD must be set/.test(e.message) && !e.message.includes('\n'),
      );
    }
  });

  it('addresses the two clinic instances on 9966 and 9967 unless told otherwise', () => {
    assert.deepEqual(clinicConfig({}), {
      baseUrl: 'http://localhost:9966/petclinic/api',
      secureBaseUrl: 'http://localhost:9967/petclinic/api',
      adminUser: undefined,
      adminPassword: undefined,
    });
    assert.equal(clinicConfig({ CLINIC_BASE_URL: 'http://c:1/api/' }).baseUrl, 'http://c:1/api');
  });
});
