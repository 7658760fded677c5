// HTTP Basic for the secured instance with upstream's roles. Passwords are stored as scrypt hashes.
// Checking one costs about 33 ms of CPU, so the check is built not to stall or inform an attacker:
// - the derivation runs in libuv's thread pool (async scrypt), never on the event loop, through
//   check-queue.ts: bounded, fair by username, budgeted per user and per client, skipping clients
//   that have gone;
// - an unknown user costs the same derivation (against a decoy hash): timing does not reveal users;
// - every request reads the user's row (one query, which also gives the roles); a verified password
//   is remembered for a minute against that row's id and hash, so a valid client pays for one
//   derivation, while a changed password, a disabled or deleted user counts on the next request.
import type { Request, RequestHandler, Response } from 'express';
import { createHmac, randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import {
  CheckAbandoned,
  CheckRefused,
  createCheckQueue,
  type CheckQueue,
  type CheckQueueLimits,
  type CheckRequest,
} from './check-queue.js';
import { sendClinicProblem } from './problems.js';
import type { ClinicStore, UserRecord } from './store/types.js';

export const ROLES = {
  OWNER_ADMIN: 'ROLE_OWNER_ADMIN',
  VET_ADMIN: 'ROLE_VET_ADMIN',
  ADMIN: 'ROLE_ADMIN',
} as const;

/** How long a verified password is remembered (still checked against the stored row every time). */
export const VERIFIED_TTL_MS = 60_000;
/** Users remembered at most; the oldest entry goes first. */
export const VERIFIED_MAX_ENTRIES = 10_000;
const KEY_LENGTH = 32;
/** How long a refused login waits for its 429/503 (a tarpit: a flood's connections slow down). */
export const REFUSAL_DELAY_MS = 1000;

/** A new salted hash, derived synchronously: for start-up (the admin) and tests only. */
export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64')}$${scryptSync(password, salt, KEY_LENGTH).toString('base64')}`;
}

function derive(password: string, salt: Buffer, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, length, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Limits of the derivation queue: a flood on one user or from one client is refused early. */
export const CHECK_LIMITS: CheckQueueLimits = {
  parallel: Math.max(1, availableParallelism() - 1),
  maxWaiting: 256,
  perUser: 4,
  perClient: 32,
};

/** A request that never leaves (tests, start-up work). */
const staying = (user: string, key: string): CheckRequest => ({
  user,
  client: 'local',
  key,
  gone: () => false,
  onGone: () => {},
});

export interface PasswordChecker {
  /** Whether `password` matches the stored hash; an absent hash costs the same and is false.
   * Rejects with CheckRefused (queue full) or CheckAbandoned (the request went away). */
  check(stored: string | undefined, password: string, request?: CheckRequest): Promise<boolean>;
  /** A new salted hash, derived off the event loop in the same queue. */
  hash(password: string, request?: CheckRequest): Promise<string>;
  /** Key derivations run so far (tests: an unknown user must cost one too). */
  readonly derivations: number;
  readonly queue: CheckQueue;
}

export function createPasswordChecker(limits: Partial<CheckQueueLimits> = {}): PasswordChecker {
  const decoy = hashPassword(randomBytes(16).toString('base64'));
  const queue = createCheckQueue({ ...CHECK_LIMITS, ...limits });
  let derivations = 0;
  let hashes = 0;
  return {
    queue,
    get derivations() {
      return derivations;
    },
    async check(stored, password, request) {
      const known = stored?.startsWith('scrypt$') === true;
      const used = known ? stored! : decoy;
      const [, salt = '', hash = ''] = used.split('$');
      const expected = Buffer.from(hash, 'base64');
      const asked = request ?? staying('', `check:${++hashes}`);
      const actual = await queue.run(asked, () => {
        derivations += 1;
        return derive(password, Buffer.from(salt, 'base64'), expected.length || KEY_LENGTH);
      });
      return known && actual.length === expected.length && timingSafeEqual(actual, expected);
    },
    async hash(password, request) {
      const salt = randomBytes(16);
      const asked = request ? { ...request, key: `hash:${++hashes}` } : staying('', `hash:${++hashes}`);
      const key = await queue.run(asked, () => {
        derivations += 1;
        return derive(password, salt, KEY_LENGTH);
      });
      return `scrypt$${salt.toString('base64')}$${key.toString('base64')}`;
    },
  };
}

interface Credentials {
  user: string;
  password: string;
}

/** What authenticate leaves on the request: the credentials and the user's row as just read. */
export type AuthedRequest = Request & { auth?: Credentials; clinicUser?: UserRecord };

/** `Authorization: Basic base64(user:password)`, or undefined when it is absent or not that form. */
export function parseBasic(header: string | undefined): Credentials | undefined {
  const match = /^ *basic +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Verified passwords, per username: the row's id and hash they matched and an HMAC of the password
 * under a key made at start (never the password itself). An entry counts only while the row still
 * has that id and hash, so keys cannot collide and a change counts at once.
 */
export function createVerifiedCache(ttlMs = VERIFIED_TTL_MS, maxEntries = VERIFIED_MAX_ENTRIES) {
  const secret = randomBytes(32);
  const entries = new Map<string, { id: number; passwordHash: string; mac: Buffer; until: number }>();
  const mac = (password: string) => createHmac('sha256', secret).update(password, 'utf8').digest();
  return {
    get size() {
      return entries.size;
    },
    holds(user: UserRecord, password: string): boolean {
      const entry = entries.get(user.username);
      if (!entry) return false;
      if (entry.until <= Date.now() || entry.id !== user.id || entry.passwordHash !== user.passwordHash) {
        entries.delete(user.username);
        return false;
      }
      return timingSafeEqual(entry.mac, mac(password));
    },
    remember(user: UserRecord, password: string): void {
      entries.delete(user.username);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(user.username, {
        id: user.id,
        passwordHash: user.passwordHash,
        mac: mac(password),
        until: Date.now() + ttlMs,
      });
    },
  };
}

function sendUnauthorized(req: Request, res: Response, parsed: boolean): void {
  res.setHeader('WWW-Authenticate', 'Basic realm="Realm"');
  if (parsed) sendClinicProblem(req, res, 401, 'BadCredentialsException', 'Bad credentials');
  else
    sendClinicProblem(
      req,
      res,
      401,
      'InsufficientAuthenticationException',
      'Full authentication is required to access this resource',
    );
}

/** The queue's view of this request: who, from where, and whether its client is still there. */
function checkRequest(req: Request, res: Response, user: string, key: string): CheckRequest {
  return {
    user,
    client: req.socket.remoteAddress ?? 'unknown',
    key,
    gone: () => req.socket.destroyed || (res.closed && !res.writableFinished),
    onGone: (listener) => {
      res.once('close', listener);
    },
  };
}

/**
 * Basic authentication against the users repository. A 401 is a problem detail with upstream's
 * Basic challenge: the same answer for an unknown user and a wrong password. A database that cannot
 * answer is a 503 (the error handler's), a full queue a 429 or 503 with Retry-After.
 */
export function authenticate(
  store: ClinicStore,
  checker: PasswordChecker = createPasswordChecker(),
  cache = createVerifiedCache(),
): RequestHandler {
  const keyMac = randomBytes(32);
  return async (req, res, next) => {
    const credentials = parseBasic(req.headers.authorization);
    if (!credentials) {
      sendUnauthorized(req, res, false);
      return;
    }
    const authed = req as AuthedRequest;
    authed.auth = credentials;
    let user: UserRecord | undefined;
    try {
      // No column holds NUL (PostgreSQL refuses it in text): such a name is an unknown user.
      if (!credentials.user.includes('\0'))
        user = (await store.users.listBy('username', credentials.user))[0];
    } catch (error) {
      next(error);
      return;
    }
    if (user?.enabled && cache.holds(user, credentials.password)) {
      authed.clinicUser = user;
      next();
      return;
    }
    // Requests asking the same question share one derivation; the key names the stored hash too.
    const key = JSON.stringify([
      credentials.user,
      user?.passwordHash ?? '',
      createHmac('sha256', keyMac).update(credentials.password, 'utf8').digest('base64'),
    ]);
    let ok: boolean;
    try {
      ok = await checker.check(
        user?.passwordHash,
        credentials.password,
        checkRequest(req, res, credentials.user, key),
      );
    } catch (error) {
      if (error instanceof CheckAbandoned) return; // nobody is there to answer
      // A full queue (CheckRefused: 429/503 + Retry-After) is answered by clinicErrorHandler, late
      // and closing the connection: refused at once, a flood would come back at the event loop's
      // full speed (and slow the open instance sharing it); pipelined requests behind it are dropped.
      if (error instanceof CheckRefused) {
        res.setHeader('Connection', 'close');
        setTimeout(() => next(error), REFUSAL_DELAY_MS).unref();
        return;
      }
      next(error);
      return;
    }
    if (!ok || !user?.enabled) {
      sendUnauthorized(req, res, true);
      return;
    }
    cache.remember(user, credentials.password);
    authed.clinicUser = user;
    next();
  };
}

/** 403 problem detail when the user has none of the roles (upstream intends 403; its advice turns it into 500).
 * The roles are those of the row authenticate read for this very request. */
export function requireRole(...roles: string[]): RequestHandler {
  return (req, res, next) => {
    const user = (req as AuthedRequest).clinicUser;
    if (user?.roles.some((r) => roles.includes(r))) {
      next();
      return;
    }
    sendClinicProblem(req, res, 403, 'AuthorizationDeniedException', 'Access Denied');
  };
}

/** For routes that hash (POST /users): the same queue, under the requesting user and client. */
export function hashFor(checker: PasswordChecker) {
  return (req: Request, password: string): Promise<string> => {
    const user = (req as AuthedRequest).auth?.user ?? '';
    const res = req.res!;
    return checker.hash(password, checkRequest(req, res, user, ''));
  };
}
