// What the runner prints: k6's banner, logfmt log lines on stderr, and a progress display
// (redrawn on a TTY, a plain block every second otherwise, as k6 on stdout).
import { formatDuration } from '../metrics/index.js';
import type { ScenarioRun } from './executors.js';
import { scenarioDurationMs, scenarioMaxVus, type ScenarioConfig } from './options.js';

export interface ConsoleIO {
  out(text: string): void;
  err(text: string): void;
  isTTY: boolean;
}

/**
 * A logfmt value as logrus's TextFormatter (k6's default) writes it: bare when every character is
 * a letter, a digit or one of - . _ / @ ^ +, else quoted. It applies to msg as well as the fields.
 */
const logfmtValue = (v: string) => (/^[A-Za-z0-9\-._/@^+]*$/.test(v) ? v : JSON.stringify(v));

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
  const extras: string[] = [];
  const rate = (r: number) => `${((r * 1000) / s.timeUnitMs).toFixed(2)} iterations/s`;
  let head: string;
  switch (s.executor) {
    case 'per-vu-iterations':
      head = `${s.iterations} iterations for each of ${s.vus} VUs`;
      extras.push(`maxDuration: ${formatDuration(s.maxDurationMs)}`);
      break;
    case 'shared-iterations':
      head = `${s.iterations} iterations shared among ${s.vus} VUs`;
      extras.push(`maxDuration: ${formatDuration(s.maxDurationMs)}`);
      break;
    case 'constant-vus':
      head = `${s.vus} looping VUs for ${formatDuration(s.durationMs)}`;
      break;
    case 'ramping-vus':
      head = `Up to ${scenarioMaxVus(s)} looping VUs for ${formatDuration(scenarioDurationMs(s))} over ${s.stages.length} stages`;
      extras.push(`gracefulRampDown: ${formatDuration(s.gracefulRampDownMs)}`);
      break;
    case 'constant-arrival-rate':
      head = `${rate(s.rate)} for ${formatDuration(s.durationMs)}`;
      extras.push(`maxVUs: ${s.maxVUs}`);
      break;
    case 'ramping-arrival-rate':
      head = `Up to ${rate(Math.max(s.startRate, ...s.stages.map((x) => x.target)))} for ${formatDuration(scenarioDurationMs(s))} over ${s.stages.length} stages`;
      extras.push(`maxVUs: ${s.preAllocatedVUs}-${s.maxVUs}`);
      break;
  }
  if (s.execExplicit) extras.push(`exec: ${s.exec}`);
  if (s.startTimeMs > 0) extras.push(`startTime: ${formatDuration(s.startTimeMs)}`);
  extras.push(`gracefulStop: ${formatDuration(s.gracefulStopMs)}`);
  return `${s.name}: ${head} (${extras.join(', ')})`;
}

export function banner(
  script: string,
  outputs: string[],
  scenarios: ScenarioConfig[],
  dashboardUrl?: string,
): string {
  const maxVus = scenarios.reduce((sum, s) => sum + scenarioMaxVus(s), 0);
  const maxMs = maxDurationMs(scenarios);
  const lines = [
    ...LOGO,
    '     execution: local',
    `        script: ${script}`,
    ...(dashboardUrl ? [` web dashboard: ${dashboardUrl}`] : []),
    `        output: ${outputs.length ? outputs.join(', ') : '-'}`,
    '',
    `     scenarios: (100.00%) ${scenarios.length} scenario${scenarios.length === 1 ? '' : 's'}, ${maxVus} max VUs, ${formatDuration(maxMs)} max duration (incl. graceful stop):`,
    ...scenarios.map((s) => `              * ${describeScenario(s)}`),
    '',
  ];
  return lines.join('\n') + '\n';
}

/** The run's maximum duration with graceful stops, as the banner states it. */
export function maxDurationMs(scenarios: ScenarioConfig[]): number {
  return Math.max(...scenarios.map((s) => s.startTimeMs + scenarioDurationMs(s) + s.gracefulStopMs));
}

/**
 * Elapsed time as k6's progress line shows it: tenths truncated, and as wide as the run's maximum
 * duration needs, so the line never changes width ("1.0s" under 10 s, "01.0s", "00m01.0s", "00h00m01.0s").
 */
export function progressClock(ms: number, maxMs: number): string {
  const tenths = Math.floor(ms / 100);
  const fraction = tenths % 10;
  const seconds = Math.floor(tenths / 10) % 60;
  const minutes = Math.floor(tenths / 600) % 60;
  const hours = Math.floor(tenths / 36_000) % 24;
  const days = Math.floor(tenths / 864_000);
  const two = (n: number) => String(n).padStart(2, '0');
  const max = Math.round(maxMs / 100) * 100;
  if (max >= 86_400_000) return `${days}d${two(hours)}h${two(minutes)}m${two(seconds)}.${fraction}s`;
  if (max >= 3_600_000) return `${two(hours + days * 24)}h${two(minutes)}m${two(seconds)}.${fraction}s`;
  if (max >= 60_000) return `${two(minutes + (hours + days * 24) * 60)}m${two(seconds)}.${fraction}s`;
  if (max >= 10_000) return `${two(seconds)}.${fraction}s`;
  return `${seconds}.${fraction}s`;
}

export function progressText(runs: ScenarioRun[], elapsedMs: number, maxVus: number, maxMs: number): string {
  const active = runs.reduce((n, r) => n + r.activeVus, 0);
  const completed = runs.reduce((n, r) => n + r.completed, 0);
  const interrupted = runs.reduce((n, r) => n + r.interrupted, 0);
  const width = Math.max(...runs.map((r) => r.config.name.length));
  const lines = [
    `running (${progressClock(elapsedMs, maxMs)}), ${active}/${maxVus} VUs, ${completed} complete and ${interrupted} interrupted iterations`,
  ];
  for (const r of runs) {
    const pct = Math.round(r.progress() * 100);
    const mark = r.finished ? '✓' : ' ';
    lines.push(
      `${r.config.name.padEnd(width)} ${mark} [ ${String(pct).padStart(3)}% ] ${r.activeVus}/${r.allocatedVus} VUs  ${formatDuration(Math.round(scenarioDurationMs(r.config)))}`,
    );
  }
  return lines.join('\n');
}

/**
 * k6's progress display, on stdout as k6 writes it: redrawn in place about once a second on a TTY,
 * otherwise a plain block every second; the last one follows the end-of-test summary.
 */
export function startProgress(io: ConsoleIO, render: () => string): { stop(): void; final(): void } {
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
  const timer = setInterval(draw, 1000);
  timer.unref();
  // k6 stops redrawing when the scenarios end and draws the last block after the summary.
  return { stop: () => clearInterval(timer), final: draw };
}
