// HTTP Basic for the secured instance with upstream's roles. Passwords are stored as scrypt hashes.
// Checking one costs about 33 ms of CPU, so the check is built not to stall or inform an attacker:
// - the derivation runs in libuv's thread pool (async scrypt), never on the event loop, and at most
//   (cores - 1) at a time, so a wrong-password flood queues behind them while the event loop, and the
//   open instance sharing the process, keep a core;
// - an unknown user costs the same derivation (against a decoy hash): timing does not reveal users;
// - a verified credential is remembered (by its SHA-256) for a minute, so a load test's valid client
//   pays for one derivation, not one per request.
import type { Request, RequestHandler } from 'express';
import basicAuth from 'express-basic-auth';
import { createHash, randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { PROBLEM_CONTENT_TYPE } from '../shared/problem.js';
import { clinicProblemBody, sendClinicProblem } from './problems.js';
import type { ClinicStore } from './store/types.js';

export const ROLES = {
  OWNER_ADMIN: 'ROLE_OWNER_ADMIN',
  VET_ADMIN: 'ROLE_VET_ADMIN',
  ADMIN: 'ROLE_ADMIN',
} as const;

const VERIFIED_TTL_MS = 60_000;
const KEY_LENGTH = 32;

export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64')}$${scryptSync(password, salt, KEY_LENGTH).toString('base64')}`;
}

function derive(password: string, salt: Buffer, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, length, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Runs at most `max` tasks at once; the others wait in arrival order. */
function limiter(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await task();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}

export interface PasswordChecker {
  /** Whether `password` matches the stored hash; an absent hash costs the same and is false. */
  check(stored: string | undefined, password: string): Promise<boolean>;
  /** Key derivations run so far (tests: an unknown user must cost one too). */
  readonly derivations: number;
}

export function createPasswordChecker(parallel = Math.max(1, availableParallelism() - 1)): PasswordChecker {
  const decoy = hashPassword(randomBytes(16).toString('base64'));
  const run = limiter(parallel);
  let derivations = 0;
  return {
    get derivations() {
      return derivations;
    },
    async check(stored, password) {
      const known = stored?.startsWith('scrypt$') === true;
      const [, salt = '', hash = ''] = (known ? stored! : decoy).split('$');
      const expected = Buffer.from(hash, 'base64');
      const actual = await run(() => {
        derivations += 1;
        return derive(password, Buffer.from(salt, 'base64'), expected.length || KEY_LENGTH);
      });
      return known && actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}

interface Credentials {
  user: string;
  password: string;
}

/**
 * Basic authentication against the users repository (express-basic-auth, which sets `req.auth` for
 * requireRole), with the checker above as its asynchronous authorizer. A 401 is a problem detail with
 * upstream's Basic challenge: the same answer for an unknown user and a wrong password.
 */
export function authenticate(
  store: ClinicStore,
  checker: PasswordChecker = createPasswordChecker(),
): RequestHandler {
  const verified = new Map<string, number>();
  return basicAuth({
    challenge: true,
    realm: 'Realm',
    authorizeAsync: true,
    authorizer: (username, password, done) => {
      const key = createHash('sha256').update(`${username}\0${password}`).digest('hex');
      const until = verified.get(key);
      if (until !== undefined) {
        if (until > Date.now()) return done(null, true);
        verified.delete(key);
      }
      store.users
        .listBy('username', username)
        .then(([user]) =>
          checker.check(user?.passwordHash, password).then((matches) => matches && user?.enabled === true),
        )
        .then(
          (ok) => {
            if (ok) verified.set(key, Date.now() + VERIFIED_TTL_MS);
            done(null, ok);
          },
          // A failed lookup or derivation refuses the request rather than reaching the library's assert.
          () => done(null, false),
        );
    },
    // express-basic-auth sends a string as it is, keeping the content type set here.
    unauthorizedResponse: (req: Request) => {
      req.res?.type(PROBLEM_CONTENT_TYPE);
      const parsed = (req as Request & { auth?: Credentials }).auth !== undefined;
      return parsed
        ? clinicProblemBody(req, 401, 'BadCredentialsException', 'Bad credentials')
        : clinicProblemBody(
            req,
            401,
            'InsufficientAuthenticationException',
            'Full authentication is required to access this resource',
          );
    },
  });
}

async function rolesOf(store: ClinicStore, req: Request): Promise<string[]> {
  const username = (req as Request & { auth?: Credentials }).auth?.user;
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
