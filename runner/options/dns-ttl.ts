// The `dns` option's ttl as k6 reads it (internal/js/runner.go parseTTL): 'inf' caches for good, '0'
// not at all, '' is k6's default 5m, anything else k6's ParseExtendedDuration, where a number without
// unit is milliseconds (not seconds, as the other durations' shorthand) and `d` counts days.
import { parseDuration } from '../metrics/index.js';
import { BARE_NUMBER } from './options-json.js';

/** k6's default ttl (types.DefaultDNSConfig). */
const DEFAULT_TTL = '5m';

/** The ttl in milliseconds, or undefined where k6 refuses it ("invalid DNS TTL: <ttl>"): negative or unreadable. */
export function dnsTtlMs(ttl: string): number | undefined {
  if (ttl === 'inf') return Number.POSITIVE_INFINITY;
  if (ttl === '0') return 0;
  const text = ttl === '' ? DEFAULT_TTL : ttl;
  let ms: number;
  if (BARE_NUMBER.test(text)) ms = Number(text);
  else {
    // Go reads no space around a duration; parseDuration trims it.
    if (text !== text.trim()) return undefined;
    const negative = text.startsWith('-');
    try {
      ms = parseDuration(negative || text.startsWith('+') ? text.slice(1) : text);
    } catch {
      return undefined;
    }
    if (negative) ms = 0 - ms; // -0s is 0, not -0
  }
  return ms < 0 ? undefined : ms;
}
