// k6's progress display, line for line (k6 v1.3 internal/ui/pb, internal/cmd/ui.go, each executor's
// progress function in lib/executor): the run line, then one bar per scenario in k6's order, with
// its status mark, a percentage (or a drawn bar on a terminal) and the executor's own columns.
import { executorOf, type ScenarioSnapshot } from '../executors/index.js';
import { fixedDuration, fixedInt } from '../executors/fixed-width.js';

export type { ScenarioSnapshot } from '../executors/index.js';
export { fixedDuration, fixedInt, fixedRate } from '../executors/fixed-width.js';

/** k6's bar statuses: running, waiting for startTime, graceful stop, interrupted, done. */
export type BarStatus = ' ' | '•' | '↓' | '✗' | '✓';

export interface Bar {
  left: string;
  status: BarStatus;
  /** 0..1 */
  progress: number;
  right: string[];
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
  return executorOf(s.config).progress(s, now);
}

export { k6Order } from '../executors/execution-plan.js';

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
