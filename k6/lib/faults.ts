// The fault-injection option of every sandbox request: LT_FAULT_ERROR_RATE (0-1) and LT_FAULT_LATENCY_MS
// (0-10000) become the sandbox's x-fault-* request headers, so a run can make its thresholds fail on
// purpose. The sandbox honours them only when it was started with SANDBOX_FAULTS=true (a public
// target cannot be slowed by anyone); unset, no header is sent. Pure, unit-tested under Node.

const LIMITS = {
  LT_FAULT_ERROR_RATE: { header: 'x-fault-error-rate', max: 1, what: 'a rate from 0 to 1' },
  LT_FAULT_LATENCY_MS: { header: 'x-fault-latency-ms', max: 10_000, what: 'milliseconds from 0 to 10000' },
} as const;

/** The x-fault-* headers the environment asks for; a value out of range stops the run at init. */
export function faultHeaders(env: Record<string, string | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, limit] of Object.entries(LIMITS)) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0 || value > limit.max)
      throw new Error(`${name} must be ${limit.what}, got "${raw}"`);
    headers[limit.header] = String(value);
  }
  return headers;
}
