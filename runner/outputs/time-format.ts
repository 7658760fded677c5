// Sample times as k6 writes them: RFC3339 with nanoseconds (NDJSON) and integer nanoseconds
// (line protocol). Samples carry fractional milliseconds since the epoch.

/** The millisecond the last time fell in, and its text up to it: a run's samples come in bursts. */
let cachedMs = Number.NaN;
/** `YYYY-MM-DDTHH:MM:SS.mmm`, and the same with the milliseconds' trailing zeros (and dot) dropped. */
let cachedMsText = '';
let cachedMsTrimmed = '';

/** `digits` without its trailing zeros. */
function trimZeros(digits: string): string {
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === 0x30) end--;
  return digits.slice(0, end);
}

/**
 * Go's RFC3339Nano in UTC: `2026-11-22T12:54:45.6295Z`, trailing zeros of the fraction dropped (and
 * its dot, when all are). Called for every sample a JSON output writes: the date is formatted once
 * per millisecond (it was a quarter of a busy output's time).
 */
export function rfc3339Nano(ms: number): string {
  let whole = Math.floor(ms);
  let nanos = Math.round((ms - whole) * 1e6);
  if (nanos === 1e6) {
    whole += 1;
    nanos = 0;
  }
  if (whole !== cachedMs) {
    cachedMs = whole;
    const iso = new Date(whole).toISOString(); // 2026-11-22T12:54:27.075Z
    cachedMsText = iso.slice(0, 23);
    const millis = trimZeros(iso.slice(20, 23));
    cachedMsTrimmed = millis ? `${iso.slice(0, 20)}${millis}` : iso.slice(0, 19);
  }
  if (nanos === 0) return `${cachedMsTrimmed}Z`;
  return `${cachedMsText}${trimZeros(String(nanos).padStart(6, '0'))}Z`;
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
