import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { signToken, verifyToken } from './tokens.js';

const SECRET = 'unit-secret';
const NOW = Date.UTC(2025, 0, 1);

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

describe('sandbox tokens', () => {
  it('round-trips subject and expiry (now + ttl)', () => {
    const token = signToken('demo@x.y', 90, SECRET, NOW);
    assert.deepEqual(verifyToken(token, SECRET, NOW), {
      ok: true,
      claims: { sub: 'demo@x.y', exp: NOW / 1000 + 90 },
    });
  });

  it('lives at least its lifetime when issued within a second (exp rounds up)', () => {
    const token = signToken('demo@x.y', 1, SECRET, NOW + 999);
    assert.equal(claimsOf(token).exp, NOW / 1000 + 2);
    assert.equal(verifyToken(token, SECRET, NOW + 999 + 999).ok, true);
  });

  it('expires exactly at exp, not a second later', () => {
    const token = signToken('demo@x.y', 90, SECRET, NOW);
    assert.equal(verifyToken(token, SECRET, NOW + 89_999).ok, true);
    assert.deepEqual(verifyToken(token, SECRET, NOW + 90_000), { ok: false, reason: 'expired' });
  });

  it('rejects a payload edited to live longer or to name someone else, keeping the old signature', () => {
    const token = signToken('demo@x.y', 90, SECRET, NOW);
    const signature = token.split('.')[1]!;
    for (const edit of [{ exp: NOW / 1000 + 10 ** 9 }, { sub: 'admin@x.y' }]) {
      const forged = Buffer.from(JSON.stringify({ ...claimsOf(token), ...edit })).toString('base64url');
      assert.deepEqual(verifyToken(`${forged}.${signature}`, SECRET, NOW), {
        ok: false,
        reason: 'signature',
      });
    }
  });

  it('rejects tokens signed with another key, and an expired token even with a valid signature', () => {
    assert.deepEqual(verifyToken(signToken('a', 90, 'other', NOW), SECRET, NOW), {
      ok: false,
      reason: 'signature',
    });
    assert.deepEqual(verifyToken(signToken('a', 1, SECRET, NOW - 5000), SECRET, NOW), {
      ok: false,
      reason: 'expired',
    });
  });

  it('calls malformed what is not two base64url parts with JSON claims', () => {
    for (const token of ['', 'abc', 'a.b.c', '.sig', `${signToken('a', 9, SECRET, NOW)}.extra`]) {
      assert.deepEqual(verifyToken(token, SECRET, NOW), { ok: false, reason: 'malformed' }, token);
    }
    // Correctly signed but not the claims we issue: still refused.
    for (const body of ['not json', '{"sub":1,"exp":"soon"}', 'null']) {
      const payload = Buffer.from(body).toString('base64url');
      const sig = createHmac('sha256', SECRET).update(payload).digest('base64url');
      assert.deepEqual(
        verifyToken(`${payload}.${sig}`, SECRET, NOW),
        { ok: false, reason: 'malformed' },
        body,
      );
    }
  });

  it('accepts only the issued string: every re-encoding or decoration of the signature is refused', () => {
    const token = signToken('demo@x.y', 90, SECRET, NOW);
    const [payload, sig] = token.split('.') as [string, string];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = sig.at(-1)!;
    const shifted = [1, 2, 3].map((by) => alphabet[(alphabet.indexOf(last) + by) % 64]!);
    const standard = Buffer.from(sig, 'base64url').toString('base64');
    const variants = [
      `${token}=`,
      `${token}==`,
      `${token}!`,
      `${token}~`,
      ...shifted.map((c) => `${payload}.${sig.slice(0, -1)}${c}`),
      `${payload}.${sig.slice(0, 10)}!${sig.slice(10)}`,
      `${payload}.${standard}`,
      `${payload}.${sig.replace(/-/g, '+').replace(/_/g, '/')}=`,
      `${payload}.${sig} `,
    ];
    // Each variant decodes to the same bytes (or nearly) under lenient base64url: all must fail.
    for (const variant of variants) {
      assert.notEqual(variant, token);
      assert.deepEqual(verifyToken(variant, SECRET, NOW), { ok: false, reason: 'signature' }, variant);
    }
    assert.equal(verifyToken(token, SECRET, NOW).ok, true);
  });
});
