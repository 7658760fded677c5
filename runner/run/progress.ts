// k6's progress display, line for line (k6 v1.3 internal/ui/pb, internal/cmd/ui.go, each executor's
// progress function in lib/executor): the run line, then one bar per scenario in k6's order, with
// its status mark, a percentage (or a drawn bar on a terminal) and the executor's own columns.
import { formatDuration } from '../metrics/index.js';
import { scenarioDurationMs, scenarioMaxVus, type ScenarioConfig } from '../options/options.js';
import { rampingTickerRate } from '../executors/schedule.js';

/** k6's bar statuses: running, waiting for startTime, graceful stop, interrupted, done. */
export type BarStatus = ' ' | '•' | '↓' | '✗' | '✓';

export interface Bar {
  left: string;
  status: BarStatus;
  /** 0..1 */
  progress: number;
  right: string[];
}

/** What a scenario's bar is drawn from at one moment. */
export interface ScenarioSnapshot {
  config: ScenarioConfig;
  /** Epoch ms, 0 before the executor starts. */
  startedAt: number;
  /** VUs running an iteration now (arrival-rate) or in their loop (looping executors). */
  runningVus: number;
  /** VUs the scenario holds (arrival-rate executors add VUs up to maxVUs). */
  allocatedVus: number;
  /** Iterations ended, complete or interrupted. */
  iterationsDone: number;
}

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

/** The scheduler's line: `running (clock), active/initialised VUs, n complete and m interrupted iterations`. */
export function runLine(
  elapsedMs: number,
  maxDurationMs: number,
  activeVus: number,
  initializedVus: number,
  maxPossibleVus: number,
  complete: number,
  interrupted: number,
): string {
  const vus = `${fixedInt(activeVus, maxPossibleVus)}/${fixedInt(initializedVus, maxPossibleVus)}`;
  return `running (${fixedDuration(elapsedMs, maxDurationMs)}), ${vus} VUs, ${complete} complete and ${interrupted} interrupted iterations`;
}

/** One executor's progress and right-hand columns, as its k6 progress function computes them. */
export function scenarioProgress(s: ScenarioSnapshot, now: number): { progress: number; right: string[] } {
  const c = s.config;
  const spent = now - s.startedAt;
  const duration = scenarioDurationMs(c);
  const timeColumn = (d: number) =>
    spent > d ? formatDuration(d) : `${fixedDuration(spent, d)}/${formatDuration(d)}`;
  const timeShare = Math.min(1, spent / duration);
  switch (c.executor) {
    case 'constant-vus':
      return { progress: timeShare, right: [`${c.vus} VUs`, timeColumn(c.durationMs)] };
    case 'ramping-vus': {
      const max = scenarioMaxVus(c);
      const vus = `${fixedInt(s.runningVus, max)}/${fixedInt(max, max)} VUs`;
      const time =
        spent > duration
          ? formatDuration(duration)
          : `${fixedDuration(spent, duration)}/${fixedDuration(duration, duration)}`;
      return { progress: timeShare, right: [vus, time] };
    }
    case 'shared-iterations': {
      const iters = `${fixedInt(s.iterationsDone, c.iterations)}/${c.iterations} shared iters`;
      return {
        progress: Math.min(1, s.iterationsDone / c.iterations),
        right: [
          `${c.vus} VUs`,
          `${fixedDuration(spent, c.maxDurationMs)}/${formatDuration(c.maxDurationMs)}`,
          iters,
        ],
      };
    }
    case 'per-vu-iterations': {
      const total = c.vus * c.iterations;
      const iters = `${fixedInt(s.iterationsDone, total)}/${total} iters, ${c.iterations} per VU`;
      return {
        progress: Math.min(1, s.iterationsDone / total),
        right: [`${c.vus} VUs`, timeColumn(c.maxDurationMs), iters],
      };
    }
    case 'constant-arrival-rate':
    case 'ramping-arrival-rate': {
      const vus = `${fixedInt(s.runningVus, c.maxVUs)}/${fixedInt(s.allocatedVus, c.maxVUs)} VUs`;
      const perSec = (r: number) => (r * 1000) / c.timeUnitMs;
      const rate =
        c.executor === 'constant-arrival-rate'
          ? fixedRate(perSec(c.rate), perSec(c.rate))
          : fixedRate(
              rampingTickerRate(c, Math.min(spent, duration)),
              perSec(Math.max(c.startRate, ...c.stages.map((x) => x.target))),
            );
      return { progress: timeShare, right: [vus, timeColumn(duration), `${rate} iters/s`] };
    }
  }
}

/** k6's order of executors: by startTime, then by name. */
export function k6Order<T extends { config: ScenarioConfig }>(runs: readonly T[]): T[] {
  return [...runs].sort(
    (a, b) =>
      a.config.startTimeMs - b.config.startTimeMs ||
      (a.config.name < b.config.name ? -1 : a.config.name > b.config.name ? 1 : 0),
  );
}

const DEFAULT_WIDTH = 40;
const MIN_WIDTH = 8;
const MAX_LEFT = 30;
const TERM_PADDING = 1;

export interface RenderOptions {
  /** Drawn bars on a terminal; percentages otherwise (k6's fixed compact bars). */
  tty: boolean;
  termWidth: number;
  color: boolean;
}

const STATUS_COLOR: Partial<Record<BarStatus, string>> = { '✗': '\x1b[31m', '✓': '\x1b[32m', '•': '\x1b[2m' };

function barBody(progress: number, width: number, color: boolean): string {
  if (width <= MIN_WIDTH)
    return `[ ${Math.round(progress * 100)
      .toString()
      .padStart(3)}% ]`;
  const space = width - 2;
  const filled = Math.trunc(space * progress);
  const fill = filled <= 0 ? '' : filled < space ? `${'='.repeat(filled - 1)}>` : '='.repeat(filled);
  const padding = '-'.repeat(Math.max(0, space - filled));
  return `[${fill}${color && padding ? `\x1b[2m${padding}\x1b[0m` : padding}]`;
}

/**
 * The run line and the bars as k6's renderMultipleBars lays them out: names padded to the longest
 * (at least "Init", the scheduler bar's name when the display starts; at most 30), each right-hand
 * column but the last padded to the widest of its kind across the bars.
 */
export function renderBars(head: string, bars: Bar[], opts: RenderOptions): string {
  const maxLeft = Math.min(MAX_LEFT, Math.max('Init'.length, ...bars.map((b) => b.left.length)));
  const columnWidths = [0, 0];
  for (const bar of bars) {
    bar.right.slice(0, -1).forEach((text, i) => {
      if (i < columnWidths.length) columnWidths[i] = Math.max(columnWidths[i]!, text.length);
    });
  }
  const left = (name: string) =>
    (name.length > maxLeft ? `${name.slice(0, maxLeft - 3)}...` : name).padEnd(maxLeft);
  const right = (bar: Bar) =>
    bar.right.map((text, i) => ` ${text.padEnd((columnWidths[i] ?? 0) + 1)}`).join('');
  // On a terminal the bars take what the longest line leaves of its width, between 8 and 40 columns.
  let width = MIN_WIDTH;
  if (opts.tty) {
    const longest = Math.max(0, ...bars.map((b) => maxLeft + 3 + right(b).length));
    width = Math.min(DEFAULT_WIDTH, Math.max(MIN_WIDTH, opts.termWidth - longest - TERM_PADDING));
  }
  const lines = bars.map((bar) => {
    const mark =
      opts.color && STATUS_COLOR[bar.status] ? `${STATUS_COLOR[bar.status]}${bar.status}\x1b[0m` : bar.status;
    return `${left(bar.left)} ${mark} ${barBody(bar.progress, width, opts.color)}${right(bar)}`;
  });
  return [head, ...lines].join('\n');
}
