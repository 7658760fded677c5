// Value formatting of k6's text summary (summary.js humanizeValue), reproduced exactly so the
// runner's end-of-test text reads like k6's.
import type { SummaryMetric } from '@loadlab/k6-format/summary';

function fixedNoTrailingZeros(value: number, precision: number): string {
  return parseFloat(value.toFixed(precision)).toString();
}

function fixedNoTrailingZerosTrunc(value: number, precision: number): string {
  const mult = 10 ** precision;
  return fixedNoTrailingZeros(Math.trunc(mult * value) / mult, precision);
}

export function humanizeDuration(ms: number, timeUnit = ''): string {
  const units: Record<string, [number, string]> = { s: [0.001, 's'], ms: [1, 'ms'], us: [1000, 'µs'] };
  const fixed = units[timeUnit];
  if (fixed) return (ms * fixed[0]).toFixed(2) + fixed[1];
  if (ms === 0) return '0s';
  if (ms < 0.001) return `${Math.trunc(ms * 1_000_000)}ns`;
  if (ms < 1) return `${fixedNoTrailingZerosTrunc(ms * 1000, 2)}µs`;
  if (ms < 1000) return `${fixedNoTrailingZerosTrunc(ms, 2)}ms`;
  let result = `${fixedNoTrailingZerosTrunc((ms % 60_000) / 1000, ms > 60_000 ? 0 : 2)}s`;
  let rest = Math.trunc(ms / 60_000);
  if (rest < 1) return result;
  result = `${rest % 60}m${result}`;
  rest = Math.trunc(rest / 60);
  return rest < 1 ? result : `${rest}h${result}`;
}

export function humanizeBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];
  if (bytes < 10) return `${bytes} B`;
  const e = Math.floor(Math.log(bytes) / Math.log(1000));
  const x = Math.floor((bytes / 1000 ** e) * 10 + 0.5) / 10;
  return `${x.toFixed(x < 10 ? 1 : 0)} ${units[e]}`;
}

export function humanizeValue(
  value: number,
  metric: Pick<SummaryMetric, 'type' | 'contains'>,
  timeUnit = '',
): string {
  if (metric.type === 'rate') return `${(Math.trunc(value * 10000) / 100).toFixed(2)}%`;
  switch (metric.contains) {
    case 'data':
      return humanizeBytes(value);
    case 'time':
      return humanizeDuration(value, timeUnit);
    default:
      return fixedNoTrailingZeros(value, 6);
  }
}
