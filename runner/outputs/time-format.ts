// Sample times as k6 writes them: RFC3339 with nanoseconds (NDJSON) and integer nanoseconds
// (line protocol). Samples carry fractional milliseconds since the epoch.

export function rfc3339Nano(ms: number): string {
  const whole = Math.floor(ms);
  const nanos = Math.round((ms - whole) * 1e6);
  const iso = new Date(whole).toISOString(); // 2026-11-22T12:54:27.075Z
  const subMs = String(nanos).padStart(6, '0');
  return `${iso.slice(0, 23)}${subMs}Z`.replace(/\.?0+Z$/, 'Z').replace(/\.Z$/, 'Z');
}

export function epochNanos(ms: number): bigint {
  return BigInt(Math.floor(ms)) * 1_000_000n + BigInt(Math.round((ms - Math.floor(ms)) * 1e6));
}

/** Go's strconv.FormatFloat(v, 'f', -1, 64): shortest digits, never an exponent. */
export function goFloat(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(20).replace(/\.?0+$/, '');
}
