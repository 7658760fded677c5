// k6's fixed-width numbers for the progress display (internal/ui/pb): every executor's columns
// and the run line are padded to the widest value they may reach, so the bars do not jitter.

/** `%0Nd` with N the digits of `max` (pb.GetFixedLengthIntFormat). */
export function fixedInt(value: number, max: number): string {
  const width = String(Math.abs(Math.trunc(max))).length + (max < 0 ? 1 : 0);
  const digits = String(Math.abs(Math.trunc(value))).padStart(value < 0 ? width - 1 : width, '0');
  return value < 0 ? `-${digits}` : digits;
}

/** `%0N.2f` with N wide enough for `max` (pb.GetFixedLengthFloatFormat with precision 2). */
export function fixedRate(value: number, max: number): string {
  let width = 1 + (max < 0 ? 1 : 0);
  if (Math.abs(max) >= 10) width += Math.floor(Math.log10(Math.abs(max)));
  width += 3;
  return value.toFixed(2).padStart(width, '0');
}

/**
 * A duration as wide as `maxMs` needs (pb.GetFixedLengthDuration): both rounded to tenths, then
 * "1.0s" under 10 s, "01.0s" under a minute, "0m01.0s" under 10 min, "00m01.0s" under an hour,
 * "0h00m01.0s" under 10 h, "00h00m01.0s" under a day, then days in front.
 */
export function fixedDuration(ms: number, maxMs: number): string {
  const tenths = Math.round(Math.abs(ms) / 100);
  const max = Math.max(Math.round(Math.abs(maxMs) / 100), tenths) * 100;
  const two = (n: number) => String(n).padStart(2, '0');
  const fraction = tenths % 10;
  const seconds = Math.floor(tenths / 10) % 60;
  const minutes = Math.floor(tenths / 600) % 60;
  const hours = Math.floor(tenths / 36_000) % 24;
  const days = Math.floor(tenths / 864_000);
  if (max < 10_000) return `${seconds % 10}.${fraction}s`;
  const secs = `${two(seconds)}.${fraction}s`;
  if (max < 60_000) return secs;
  if (max < 600_000) return `${minutes % 10}m${secs}`;
  const mins = `${two(minutes)}m${secs}`;
  if (max < 3_600_000) return mins;
  if (max < 36_000_000) return `${hours % 10}h${mins}`;
  const hrs = `${two(hours)}h${mins}`;
  if (max < 86_400_000) return hrs;
  // One digit for the days, and one more for each power of ten in the maximum's tens of days.
  const tensOfDays = Math.floor(max / 864_000_000);
  const dayDigits = 1 + (tensOfDays > 0 ? String(tensOfDays).length : 0);
  return `${String(days).padStart(dayDigits, '0')}d${hrs}`;
}
