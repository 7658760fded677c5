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
  if (!parts || parts.join('') !== text) throw new DurationError(`time: invalid duration "${text}"`);
  return parts.reduce((sum, part) => {
    const [, n, name] = unit.exec(part)!;
    return sum + Number(n) * UNIT_MS[name!]!;
  }, 0);
}

/** 33000 -> `33s`, 90000 -> `1m30s`, 3600000 -> `1h0m0s`: Go's Duration.String, as k6 prints. */
export function formatDuration(ms: number): string {
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const seconds = Number(((ms % 60_000) / 1000).toFixed(3));
  if (hours > 0) return `${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${minutes}m${seconds}s`;
  return `${seconds}s`;
}
