// k6 duration strings (`1m30s`, `500ms`, `2h`, bare numbers as milliseconds... or seconds for
// some options) -> milliseconds, one parser with Go's and k6's words for what they refuse; and Go's
// Duration.String and Round, as k6 prints every duration.
import { goQuote } from './go-quote.js';

/** Go's time units in nanoseconds (time.ParseDuration's unitMap: both micro signs). */
const GO_UNIT_NS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  '\u00b5s': 1e3,
  '\u03bcs': 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};
/** The longest time.Duration, int64 nanoseconds (about 292 years); Go refuses a longer one. */
const MAX_NS = 2 ** 63;
const DAY_MS = 86_400_000;

export class DurationError extends Error {}

/**
 * A k6 duration to milliseconds: a number is milliseconds, a bare numeric string seconds, else Go's
 * time.ParseDuration (signed; `.5s`, `1.s` and `+1s` are durations). Options accept k6's whole days
 * before it too (types.ParseExtendedDuration: `1d2h`); a request's timeout takes Go's units alone
 * (`{ days: false }`). What Go or k6 refuses throws a DurationError in their words.
 */
export function parseDuration(value: unknown, { days = true }: { days?: boolean } = {}): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  if (typeof value !== 'string') throw new DurationError(`invalid duration ${JSON.stringify(value)}`);
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const parsed = days ? parseWithDays(text) : goParseDuration(text);
  if (parsed instanceof DurationError) throw parsed;
  return parsed;
}

/** What Go's time.ParseDuration says of `text`, in its own words, or undefined when Go accepts it. */
export function goDurationError(text: string): string | undefined {
  const parsed = goParseDuration(text);
  return parsed instanceof DurationError ? parsed.message : undefined;
}

/**
 * k6's types.ParseExtendedDuration past its bare number: whole days (strconv.ParseInt) before a `d`,
 * Go's duration after it, which may not be negative; negative days count the rest down too.
 */
function parseWithDays(text: string): number | DurationError {
  const d = text.indexOf('d');
  if (d < 0) return goParseDuration(text);
  let restMs = 0;
  if (d + 1 < text.length) {
    const rest = text.slice(d + 1);
    const parsed = goParseDuration(rest);
    if (parsed instanceof DurationError) return parsed;
    if (parsed < 0) return new DurationError(`invalid time format '${rest}'`);
    restMs = parsed;
  }
  const dayText = text.slice(0, d);
  if (!/^[+-]?\d+$/.test(dayText))
    return new DurationError(`strconv.ParseInt: parsing ${goQuote(dayText)}: invalid syntax`);
  const dayCount = Number(dayText);
  return dayCount * DAY_MS + (dayCount < 0 ? -restMs : restMs);
}

/** Go's time.ParseDuration: a signed sequence of decimal numbers, each with a unit, in milliseconds. */
function goParseDuration(text: string): number | DurationError {
  const invalid = () => new DurationError(`time: invalid duration ${timeQuote(text)}`);
  let s = text;
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') return invalid();
  let totalNs = 0;
  while (s !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    const [whole, digits = '', fraction] = number;
    // A number is digits, a point and digits, or both; not a point alone.
    if (digits === '' && !fraction) return invalid();
    s = s.slice(whole.length);
    const unit = /^[^\d.]*/.exec(s)![0];
    if (unit === '') return new DurationError(`time: missing unit in duration ${timeQuote(text)}`);
    const unitNs = GO_UNIT_NS[unit];
    if (unitNs === undefined)
      return new DurationError(`time: unknown unit ${timeQuote(unit)} in duration ${timeQuote(text)}`);
    s = s.slice(unit.length);
    totalNs += Number(digits || '0') * unitNs + (fraction ? Number(`0.${fraction}`) * unitNs : 0);
    if (totalNs > MAX_NS) return invalid();
  }
  const ms = totalNs / 1e6;
  return negative && ms !== 0 ? -ms : ms;
}

/**
 * The time package's own quote for its errors: `"` and `\\` escaped, and every byte of a non-ASCII
 * or control character as `\\x..` (not strconv.Quote's Unicode escapes).
 */
function timeQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    if (ch < ' ' || ch > '\x7f') {
      // Its UTF-8 bytes, without Buffer (a VU isolate has none): %XX each.
      out += encodeURIComponent(ch).replace(/%([0-9A-F]{2})/g, (_, hex: string) => `\\x${hex.toLowerCase()}`);
    } else out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
  }
  return `${out}"`;
}

/**
 * Go's time.Duration.String of milliseconds, as k6 prints every duration (banner, errors, NDJSON):
 * 500 -> `500ms`, 1500 -> `1.5s`, 90000 -> `1m30s`, 3600000 -> `1h0m0s`, 0.5 -> `500µs`.
 */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  if (abs < 1) return `${sign}${Number((abs * 1000).toFixed(3))}µs`;
  if (abs < 1000) return `${sign}${Number(abs.toFixed(6))}ms`;
  const hours = Math.floor(abs / 3_600_000);
  const minutes = Math.floor((abs % 3_600_000) / 60_000);
  const seconds = `${Number(((abs % 60_000) / 1000).toFixed(9))}s`;
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}`;
  return `${sign}${seconds}`;
}

/**
 * Go's time.Duration.Round of milliseconds to a multiple of `multipleMs`, in whole nanoseconds as Go
 * counts: the nearest multiple, halfway values away from zero (k6's banner rounds its max duration to
 * 100 ms: 2.25 s is `2.3s`). A multiple of 0 or less leaves the duration as it is.
 */
export function roundDuration(ms: number, multipleMs: number): number {
  const d = Math.round(ms * 1e6);
  const m = Math.round(multipleMs * 1e6);
  if (m <= 0) return ms;
  const r = Math.abs(d % m);
  const sign = d < 0 ? -1 : 1;
  const magnitude = Math.abs(d);
  const rounded = r + r < m ? magnitude - r : magnitude + m - r;
  return rounded === 0 ? 0 : (sign * rounded) / 1e6;
}

/**
 * A measured time span in ms as k6 reports one: Go measures a time.Duration, whole nanoseconds, and
 * k6's metric value is that count divided by 1e6 (2.102916, never 2.1029159999999747). The runner
 * measures with performance.now(), whose differences carry float noise below the nanosecond.
 */
export function measuredMs(ms: number): number {
  return Math.round(ms * 1e6) / 1e6;
}
