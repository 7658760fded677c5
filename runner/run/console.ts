// What the runner prints: k6's banner, logfmt log lines on stderr, and a progress display
// (redrawn on a TTY, a plain block every second otherwise, as k6 on stdout).
import { formatDuration } from '../metrics/index.js';
import { roundDuration } from '@loadlab/k6-format/duration';
import type { ScenarioRun } from './scenario-run.js';
import { goQuote } from '@loadlab/k6-format/go-quote';
import { k6Order, renderBars, runLine, type RenderOptions } from './progress.js';
import { executorOf } from '../executors/index.js';
import { endOffsetMs, executionPlan, maxPossibleVus } from '../executors/execution-plan.js';
import type { ScenarioConfig } from '../options/options.js';

export interface ConsoleIO {
  out(text: string): void;
  err(text: string): void;
  isTTY: boolean;
  /** The terminal's width, when stdout is one. */
  columns?: number;
}

/**
 * A logfmt value as logrus's TextFormatter (k6's default) writes it: bare when every character is
 * a letter, a digit or one of - . _ / @ ^ +, else quoted. It applies to msg as well as the fields.
 */
const logfmtValue = (v: string) => (/^[A-Za-z0-9\-._/@^+]*$/.test(v) ? v : goQuote(v));

/** `time="…" level=error msg="…" key=value` as k6 logs. */
export function logLine(level: string, msg: string, fields: Record<string, string> = {}): string {
  const time = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const extra = Object.entries(fields).map(([k, v]) => ` ${k}=${logfmtValue(v)}`);
  // k6's logger (logrus) spells the warning level out in full.
  const name = level === 'warn' ? 'warning' : level;
  return `time="${time}" level=${name} msg=${logfmtValue(msg)}${extra.join('')}\n`;
}

const LOGO = [
  '',
  '         /\\      Grafana   /‾‾/  ',
  '    /\\  /  \\     |\\  __   /  /   ',
  '   /  \\/    \\    | |/ /  /   ‾‾\\ ',
  '  /          \\   |   (  |  (‾)  |',
  ' / __________ \\  |_|\\_\\  \\_____/ ',
  '',
];

function describeScenario(s: ScenarioConfig): string {
  const { head, extras } = executorOf(s).describe(s);
  if (s.execExplicit) extras.push(`exec: ${s.exec}`);
  if (s.startTimeMs > 0) extras.push(`startTime: ${formatDuration(s.startTimeMs)}`);
  // k6 names a gracefulStop only when there is one, and drops the parentheses when nothing is in them.
  if (s.gracefulStopMs > 0) extras.push(`gracefulStop: ${formatDuration(s.gracefulStopMs)}`);
  return extras.length ? `${s.name}: ${head} (${extras.join(', ')})` : `${s.name}: ${head}`;
}

/** k6 states the max duration rounded to this (Duration.Round in cmd/ui.go); the scenario lines are not. */
const BANNER_ROUNDING_MS = 100;

/**
 * k6's logo, the banner's first part: k6 prints it once the script's dependency analysis and its
 * secret sources passed, before it loads the script (an exception in init comes after it).
 */
export function logo(): string {
  return `${LOGO.join('\n')}\n`;
}

/** The rest of the banner, printed once the outputs started. */
export function banner(
  script: string,
  outputs: string[],
  scenarios: ScenarioConfig[],
  dashboardUrl?: string,
): string {
  const { maxVus, maxMs } = runLimits(scenarios);
  const lines = [
    '     execution: local',
    `        script: ${script}`,
    ...(dashboardUrl ? [` web dashboard: ${dashboardUrl}`] : []),
    `        output: ${outputs.length ? outputs.join(', ') : '-'}`,
    '',
    `     scenarios: (100.00%) ${scenarios.length} scenario${scenarios.length === 1 ? '' : 's'}, ${maxVus} max VUs, ${formatDuration(roundDuration(maxMs, BANNER_ROUNDING_MS))} max duration (incl. graceful stop):`,
    // In k6's order (by startTime, then name), as k6 lists its executors.
    ...k6Order(scenarios.map((config) => ({ config }))).map(
      ({ config }) => `              * ${describeScenario(config)}`,
    ),
    '',
  ];
  return lines.join('\n') + '\n';
}

/** What the banner states and the progress line is as wide as. */
export interface RunLimits {
  /** The most VUs the scenarios may hold at once (k6 counts those that overlap in time). */
  maxVus: number;
  /** The run's maximum duration with graceful stops. */
  maxMs: number;
}

/** The run's limits from its execution plan, as k6's banner and run line take them. */
export function runLimits(scenarios: readonly ScenarioConfig[]): RunLimits {
  const plan = executionPlan(scenarios);
  return { maxVus: maxPossibleVus(plan), maxMs: endOffsetMs(plan) };
}

/** The run line and one bar per scenario, in k6's order and layout (see progress.ts). */
export function progressText(
  runs: readonly ScenarioRun[],
  elapsedMs: number,
  initializedVus: number,
  limits: RunLimits,
  opts: RenderOptions,
): string {
  const sum = (count: (r: ScenarioRun) => number) => runs.reduce((n, r) => n + count(r), 0);
  const head = runLine(
    elapsedMs,
    limits.maxMs,
    sum((r) => r.activeVus),
    initializedVus,
    limits.maxVus,
    sum((r) => r.completed),
    sum((r) => r.interrupted),
  );
  return renderBars(
    head,
    k6Order(runs).map((r) => r.bar()),
    opts,
  );
}

/**
 * k6's progress display, on stdout as k6 writes it: redrawn in place ten times a second on a TTY,
 * otherwise a plain block every second; the last one follows the end-of-test summary.
 */
export interface ProgressDisplay {
  /** Stops redrawing (the scenarios ended). */
  stop(): void;
  /** Draws the last block (after the summary). */
  final(): void;
}

export function startProgress(io: ConsoleIO, render: () => string): ProgressDisplay {
  let drawn = 0;
  const draw = () => {
    const text = render();
    if (io.isTTY) {
      io.out(
        `${drawn ? `\x1b[${drawn}A` : ''}${text
          .split('\n')
          .map((l) => `${l}\x1b[0K`)
          .join('\n')}\n`,
      );
      drawn = text.split('\n').length;
    } else {
      io.out(`\n${text}\n`);
    }
  };
  // k6 redraws ten times a second on a terminal, once a second otherwise.
  const timer = setInterval(draw, io.isTTY ? 100 : 1000);
  timer.unref();
  // k6 stops redrawing when the scenarios end and draws the last block after the summary.
  return { stop: () => clearInterval(timer), final: draw };
}
