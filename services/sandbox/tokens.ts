// Signed bearer tokens: base64url(JSON claims) + "." + base64url(HMAC-SHA256). Small, dependency
// free and verifiable without state, which is all a load-test target needs.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface TokenClaims {
  sub: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

export type TokenCheck =
  { ok: true; claims: TokenClaims } | { ok: false; reason: 'malformed' | 'signature' | 'expired' };

function signature(payload: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest();
}

export function signToken(subject: string, ttlSeconds: number, secret: string, nowMs = Date.now()): string {
  // exp is in whole seconds: round up, so a token lives at least its lifetime (rounding down gave a
  // 1 s token issued at x.999 s one millisecond).
  const claims: TokenClaims = { sub: subject, exp: Math.ceil(nowMs / 1000) + ttlSeconds };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${signature(payload, secret).toString('base64url')}`;
}

export function verifyToken(token: string, secret: string, nowMs = Date.now()): TokenCheck {
  const [payload, sig, ...rest] = token.split('.');
  if (!payload || !sig || rest.length > 0) return { ok: false, reason: 'malformed' };
  // Compare the text as issued, not decoded bytes: base64url decoding skips invalid characters and
  // ignores unused trailing bits, so `T=`, `T!` or a shifted last character would decode the same.
  const given = Buffer.from(sig);
  const expected = Buffer.from(signature(payload, secret).toString('base64url'));
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'signature' };
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const { sub, exp } = (claims ?? {}) as Partial<TokenClaims>;
  if (typeof sub !== 'string' || typeof exp !== 'number') return { ok: false, reason: 'malformed' };
  if (exp * 1000 <= nowMs) return { ok: false, reason: 'expired' };
  return { ok: true, claims: { sub, exp } };
}
