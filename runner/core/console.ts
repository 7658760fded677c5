// What the runner prints: k6's banner, logfmt log lines on stderr, and a progress display
// (redrawn on a TTY, a plain line every 10 s otherwise).
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
  const maxMs = Math.max(
    ...scenarios.map(
      (s) =>
        s.startTimeMs + scenarioDurationMs(s) + s.gracefulStopMs + (s.executor === 'ramping-vus' ? 0 : 0),
    ),
  );
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

const clock = (ms: number) => {
  const m = Math.floor(ms / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${String(m).padStart(2, '0')}m${s.toFixed(1).padStart(4, '0')}s`;
};

export function progressText(runs: ScenarioRun[], elapsedMs: number, maxVus: number): string {
  const active = runs.reduce((n, r) => n + r.activeVus, 0);
  const completed = runs.reduce((n, r) => n + r.completed, 0);
  const interrupted = runs.reduce((n, r) => n + r.interrupted, 0);
  const width = Math.max(...runs.map((r) => r.config.name.length));
  const lines = [
    `running (${clock(elapsedMs)}), ${active}/${maxVus} VUs, ${completed} complete and ${interrupted} interrupted iterations`,
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

/** Redraws in place on a TTY (about once a second); prints a plain block every 10 s otherwise. */
export function startProgress(io: ConsoleIO, render: () => string): () => void {
  let drawn = 0;
  const draw = () => {
    const text = render();
    if (io.isTTY) {
      io.err(
        `${drawn ? `\x1b[${drawn}A` : ''}${text
          .split('\n')
          .map((l) => `${l}\x1b[0K`)
          .join('\n')}\n`,
      );
      drawn = text.split('\n').length;
    } else {
      io.err(`${text}\n\n`);
    }
  };
  const timer = setInterval(draw, io.isTTY ? 1000 : 10_000);
  timer.unref();
  return () => {
    clearInterval(timer);
    draw();
  };
}
