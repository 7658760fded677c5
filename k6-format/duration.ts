// k6 duration strings (`1m30s`, `500ms`, `2h`, bare numbers as milliseconds... or seconds for
// some options) -> milliseconds. Go's time.ParseDuration units plus k6's `d`.
const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

const UNIT = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d)/;
const GO_UNIT = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/;
const EVERY_UNIT = new RegExp(UNIT.source, 'g');
const EVERY_GO_UNIT = new RegExp(GO_UNIT.source, 'g');

export class DurationError extends Error {}

/**
 * A k6 duration to milliseconds: a number is milliseconds, a bare numeric string seconds, else Go's
 * units. Options accept k6's `d` too (types.ParseExtendedDuration); a request's timeout takes Go's
 * units alone (`{ days: false }`).
 */
export function parseDuration(value: unknown, { days = true }: { days?: boolean } = {}): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  if (typeof value !== 'string') throw new DurationError(`invalid duration ${JSON.stringify(value)}`);
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const unit = days ? UNIT : GO_UNIT;
  const parts = text.match(days ? EVERY_UNIT : EVERY_GO_UNIT);
  if (!parts || parts.join('') !== text) throw new DurationError(parseError(text, days));
  return parts.reduce((sum, part) => {
    const [, n, name] = unit.exec(part)!;
    return sum + Number(n) * UNIT_MS[name!]!;
  }, 0);
}

/** Go's words for a duration it refuses; after k6's `d`, Go reads the rest (ParseExtendedDuration). */
function parseError(text: string, days: boolean): string {
  const d = days ? text.indexOf('d') : -1;
  const goPart = d >= 0 && d + 1 < text.length ? text.slice(d + 1) : text;
  return goDurationError(goPart) ?? `time: invalid duration ${JSON.stringify(text)}`;
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

const GO_UNITS = ['ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h'];

/** What Go's time.ParseDuration says of `text`, in its own words, or undefined when Go accepts it. */
export function goDurationError(text: string): string | undefined {
  if (/^[+-]?0$/.test(text)) return undefined;
  const quoted = JSON.stringify(text);
  if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(text)) return `time: missing unit in duration ${quoted}`;
  if (!/^[+-]?((\d+\.?\d*|\.\d+)([^\d.]*))+$/.test(text)) return `time: invalid duration ${quoted}`;
  for (const part of text.match(/(\d+\.?\d*|\.\d+)([^\d.]*)/g)!) {
    const unit = part.replace(/^[\d.]+/, '');
    if (unit === '') return `time: missing unit in duration ${quoted}`;
    if (!GO_UNITS.includes(unit)) return `time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`;
  }
  return undefined;
}
