// Which driver errors mean "the database cannot answer now" rather than "this request is wrong":
// they become StoreUnavailable (503 + Retry-After) instead of a 500 or a 400.
import { StoreUnavailable } from './types.js';

/** SQLSTATE classes and codes a retry may get past (PostgreSQL's appendix A). */
const UNAVAILABLE_CLASSES = ['08', '53', '57P']; // connection, insufficient resources, operator intervention
const UNAVAILABLE_CODES = new Set([
  '57014', // query_canceled: statement_timeout
  '55P03', // lock_not_available: lock_timeout
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);
/** Socket errors of a connection that failed or broke. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** The pg driver's and pool's own words for a connection it lost or could not get in time. */
const DRIVER_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Query read timeout',
  'is not queryable',
  'Cannot use a pool after calling end',
];

export function isUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailable) return true;
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (UNAVAILABLE_CODES.has(code) || SOCKET_CODES.has(code)) return true;
  if (code.length === 5 && UNAVAILABLE_CLASSES.some((c) => code.startsWith(c))) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return DRIVER_MESSAGES.some((m) => message.includes(m));
}

/** `error` as a StoreUnavailable when it is one, else unchanged. */
export function asUnavailable(error: unknown): unknown {
  if (error instanceof StoreUnavailable || !isUnavailable(error)) return error;
  return new StoreUnavailable(`the database is unavailable: ${(error as Error).message}`, { cause: error });
}
