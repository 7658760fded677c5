import assert from 'node:assert/strict';
import { ConfigError } from './config-error.js';
import { refuseWeakPassword, THROWAWAY_DEMO } from './weak-password.js';

describe('refuseWeakPassword', () => {
  it("refuses .env.example's placeholder and well-known defaults in one line, whatever their case", () => {
    for (const value of [
      '<choose-a-password>',
      'password',
      'admin',
      'Admin',
      'changeme',
      '123456',
      ' admin',
      'admin\t',
      ' <choose-a-password> ',
      '   ',
    ]) {
      assert.throws(
        () => refuseWeakPassword({ ADMIN_PASSWORD: value }, 'ADMIN_PASSWORD'),
        (e: Error) =>
          e instanceof ConfigError && e.message.startsWith('ADMIN_PASSWORD ') && !e.message.includes('\n'),
        value,
      );
    }
  });

  it('lets other passwords, an unset one and an explicit throwaway demo through', () => {
    for (const value of ['S9-random-24-chars-xxxxx', 'p', 'admin-secret', undefined])
      refuseWeakPassword({ DEMO_PASSWORD: value }, 'DEMO_PASSWORD');
    refuseWeakPassword({ DEMO_PASSWORD: 'password', [THROWAWAY_DEMO]: 'true' }, 'DEMO_PASSWORD');
    assert.throws(() =>
      refuseWeakPassword({ DEMO_PASSWORD: 'password', [THROWAWAY_DEMO]: 'yes' }, 'DEMO_PASSWORD'),
    );
  });
});
