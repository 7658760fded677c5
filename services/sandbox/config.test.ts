import assert from 'node:assert/strict';
import { ConfigError, sandboxConfigFromEnv } from './config.js';

describe('sandbox config', () => {
  const base = { DEMO_EMAIL: 'a@b.c', DEMO_PASSWORD: 'p' };

  it('refuses to start without demo credentials, in one line', () => {
    assert.throws(
      () => sandboxConfigFromEnv({ DEMO_EMAIL: 'a@b.c' }),
      (e: Error) => e instanceof ConfigError && !e.message.includes('\n'),
    );
  });

  it('keeps fault injection off unless SANDBOX_FAULTS=true, and bounds its values', () => {
    assert.equal(sandboxConfigFromEnv({ ...base, SANDBOX_FAULT_ERROR_RATE: '1' }).faults.enabled, false);
    const on = sandboxConfigFromEnv({ ...base, SANDBOX_FAULTS: 'true', SANDBOX_FAULT_LATENCY_MS: '25' });
    assert.deepEqual(on.faults, { enabled: true, latencyMs: 25, errorRate: 0 });
    assert.throws(
      () => sandboxConfigFromEnv({ ...base, SANDBOX_FAULT_ERROR_RATE: '2' }),
      /SANDBOX_FAULT_ERROR_RATE/,
    );
    assert.throws(
      () => sandboxConfigFromEnv({ ...base, SANDBOX_TOKEN_TTL_SECONDS: 'soon' }),
      /SANDBOX_TOKEN_TTL_SECONDS/,
    );
  });

  it('refuses the .env.example placeholder or a default demo password unless it is a throwaway demo', () => {
    for (const DEMO_PASSWORD of ['<choose-a-password>', 'password', 'demo'])
      assert.throws(
        () => sandboxConfigFromEnv({ ...base, DEMO_PASSWORD }),
        (e: Error) => e instanceof ConfigError && /^DEMO_PASSWORD /.test(e.message),
      );
    const demo = { ...base, DEMO_PASSWORD: 'password', LOADLAB_THROWAWAY_DEMO: 'true' };
    assert.equal(sandboxConfigFromEnv(demo).demoPassword, 'password');
  });

  it('signs with a random key per process unless one is given', () => {
    assert.notEqual(sandboxConfigFromEnv(base).tokenSecret, sandboxConfigFromEnv(base).tokenSecret);
    assert.equal(sandboxConfigFromEnv({ ...base, SANDBOX_TOKEN_SECRET: 's' }).tokenSecret, 's');
  });
});
