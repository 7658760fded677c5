// HTTP Basic for the secured instance (express-basic-auth) with upstream's roles. Passwords are
// stored as scrypt hashes; a verified credential is remembered (by its SHA-256) for a minute so a
// load test does not spend its CPU on key stretching for every request.
import basicAuth from 'express-basic-auth';
import type { Request, RequestHandler } from 'express';
import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { ClinicStore } from './store/types.js';
import { sendClinicProblem } from './problems.js';

export const ROLES = {
  OWNER_ADMIN: 'ROLE_OWNER_ADMIN',
  VET_ADMIN: 'ROLE_VET_ADMIN',
  ADMIN: 'ROLE_ADMIN',
} as const;

const VERIFIED_TTL_MS = 60_000;

export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64')}$${scryptSync(password, salt, 32).toString('base64')}`;
}

export function verifyPassword(password: string, stored: string): boolean {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = scryptSync(password, Buffer.from(salt, 'base64'), expected.length);
  return timingSafeEqual(actual, expected);
}

/** Basic authentication against the users repository; 401 with upstream's realm otherwise. */
export function authenticate(store: ClinicStore): RequestHandler {
  const verified = new Map<string, number>();
  return basicAuth({
    challenge: true,
    realm: 'Realm',
    authorizeAsync: true,
    authorizer: (username: string, password: string, done: (err: unknown, ok: boolean) => void) => {
      const key = createHash('sha256').update(`${username}\0${password}`).digest('hex');
      const until = verified.get(key);
      if (until !== undefined && until > Date.now()) return done(null, true);
      store.users
        .listBy('username', username)
        .then(([user]) => {
          const ok = Boolean(user?.enabled && verifyPassword(password, user.passwordHash));
          if (ok) verified.set(key, Date.now() + VERIFIED_TTL_MS);
          done(null, ok);
        })
        .catch((error: unknown) => done(error, false));
    },
    unauthorizedResponse: () => '',
  });
}

async function rolesOf(store: ClinicStore, req: Request): Promise<string[]> {
  const username = (req as Request & { auth?: { user: string } }).auth?.user;
  return username === undefined ? [] : ((await store.users.listBy('username', username))[0]?.roles ?? []);
}

/** 403 problem detail when the user has none of the roles (upstream intends 403; its advice turns it into 500). */
export function requireRole(store: ClinicStore, ...roles: string[]): RequestHandler {
  return async (req, res, next) => {
    if ((await rolesOf(store, req)).some((r) => roles.includes(r))) {
      next();
      return;
    }
    sendClinicProblem(req, res, 403, 'AuthorizationDeniedException', 'Access Denied');
  };
}
