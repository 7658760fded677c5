// `npm run test:report [-- --quick] [--results DIR]`: runs the seven report scenarios with profile smoke
// through scripts/run-k6.sh (whichever engine it picks), keeps each run's summary and NDJSON under
// results/runs/<run-id>-<scenario>.*, then writes REPORT.md, report/index.html and junit.xml.
// Exit: 0 all passed; 1 a scenario failed (the report is still written); 2 cannot start.
import { EXIT } from '@loadlab/k6-format/exit-codes';
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describeEngine, readEngine } from '../report/engine-of-run.js';
import { generateReports } from '../report/generate.js';
import type { RunInput } from '../report/model.js';
import { findPreviousRun, makeRunId } from '../report/runs.js';

/** Scenario label -> bundle candidates (journeys may live at k6/journeys or k6/scenarios/journeys). */
const REPORT_SCENARIOS: readonly { name: string; bundles: string[] }[] = [
  { name: 'smoke', bundles: ['scenarios/smoke/api-health'] },
  { name: 'load-auth', bundles: ['scenarios/load/api-auth'] },
  { name: 'load-users', bundles: ['scenarios/load/api-users'] },
  { name: 'mixed-traffic', bundles: ['scenarios/load/mixed-traffic'] },
  { name: 'login-flow', bundles: ['journeys/login-flow', 'scenarios/journeys/login-flow'] },
  {
    name: 'authenticated-user',
    bundles: ['journeys/authenticated-user', 'scenarios/journeys/authenticated-user'],
  },
  { name: 'spike', bundles: ['scenarios/spike/api-spike'] },
];

const QUICK_ARGS = ['--vus', '2', '--duration', '5s'];
const USAGE = 'usage: npm run test:report [-- --quick] [--results DIR]';

function bundleFor(distDir: string, candidates: string[]): string | undefined {
  return candidates.map((c) => join(distDir, `${c}.js`)).find((p) => existsSync(p));
}

/** The line of an engine log most likely to say what went wrong, for the one-line progress output. */
async function lastErrorLine(logPath: string): Promise<string> {
  const lines = (await readFile(logPath, 'utf8').catch(() => ''))
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const line = lines.findLast((l) => /error|exception|level=error/i.test(l)) ?? lines.at(-1) ?? 'no output';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

async function healthy(baseUrl: string): Promise<boolean> {
  try {
    const res = await fetch(new URL('/health', baseUrl), { signal: AbortSignal.timeout(3000) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

function runEngine(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  logPath: string,
  timeoutMs: number,
): Promise<number> {
  return new Promise((resolve) => {
    const log = createWriteStream(logPath);
    // Through bash, so a wrapper without its executable bit (a fresh zip checkout) still runs.
    const [file, fileArgs] = cmd.endsWith('.sh') ? ['bash', [cmd, ...args]] : [cmd, args];
    const child = spawn(file, fileArgs, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    // Every run is bounded: a hung engine must not hang the whole report.
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    const finish = (code: number) => {
      clearTimeout(timer);
      log.end(() => resolve(code));
    };
    child.once('error', (e) => {
      log.write(`cannot start ${cmd}: ${e.message}\n`);
      finish(127);
    });
    child.once('close', (code, signal) => finish(code ?? (signal ? 128 : 1)));
  });
}

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        quick: { type: 'boolean', default: false },
        results: { type: 'string', default: 'results' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (e) {
    console.error(`test:report: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const quick = values.quick || process.env.LT_REPORT_QUICK === 'true';
  const baseUrl = process.env.BASE_URL || 'http://localhost:5050';
  const engine = process.env.LT_REPORT_ENGINE || 'scripts/run-k6.sh';
  const distDir = process.env.LT_REPORT_DIST || join('dist', 'k6');
  const resultsDir = values.results;
  const runsDir = join(resultsDir, 'runs');

  if (!(await healthy(baseUrl))) {
    console.error(
      `test:report: ${new URL('/health', baseUrl).href} does not answer; start the services first (npm run lab, or set BASE_URL)`,
    );
    return 2;
  }
  // Build the bundles from the current sources (stale bundles would report on old code), unless a
  // ready-made bundle directory was named.
  if (!process.env.LT_REPORT_DIST) {
    const built = await new Promise<number>((resolve) => {
      const child = spawn('npm', ['run', '--silent', 'build:k6'], {
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      child.once('error', () => resolve(127));
      child.once('close', (code) => resolve(code ?? 1));
    });
    if (built !== 0) {
      console.error(`test:report: npm run build:k6 failed (exit ${built})`);
      return 2;
    }
  }
  const plan = REPORT_SCENARIOS.map((s) => ({ ...s, bundle: bundleFor(distDir, s.bundles) }));
  const missing = plan.filter((p) => !p.bundle).map((p) => p.name);
  if (missing.length) {
    console.error(
      `test:report: no bundle in ${distDir} for ${missing.join(', ')}; run npm run build:k6 first`,
    );
    return 2;
  }
  if (!existsSync(engine)) {
    console.error(`test:report: engine wrapper ${engine} not found`);
    return 2;
  }

  await mkdir(runsDir, { recursive: true });
  const runId = makeRunId();
  let interrupted = false;
  process.once('SIGINT', () => {
    interrupted = true;
    console.error('test:report: interrupted; finishing the current scenario and writing the report');
  });
  console.log(
    `test:report: run ${runId}, profile smoke${quick ? ' (quick: --vus 2 --duration 5s)' : ''}, target ${baseUrl}`,
  );

  const inputs: RunInput[] = [];
  const engines = new Set<string>();
  for (const [i, s] of plan.entries()) {
    if (interrupted) break;
    const stem = join(runsDir, `${runId}-${s.name}`);
    const progress = `[${i + 1}/${plan.length}] ${s.name}`;
    console.log(`${progress}: started`);
    const started = Date.now();
    const args = [s.bundle as string, '--out', `json=${stem}.ndjson`, ...(quick ? QUICK_ARGS : [])];
    const env = {
      ...process.env,
      LT_PROFILE: 'smoke',
      LT_SCENARIO: s.name,
      LT_RUN_SUMMARY: `${stem}.json`,
      LT_RESULTS_DIR: resultsDir,
      BASE_URL: baseUrl,
    };
    const code = await runEngine(engine, args, env, `${stem}.log`, quick ? 120_000 : 600_000);
    const input: RunInput = { scenario: s.name, runId, exitCode: code, logPath: `${stem}.log` };
    if (existsSync(`${stem}.json`)) input.summaryPath = `${stem}.json`;
    if (existsSync(`${stem}.ndjson`)) input.seriesPath = `${stem}.ndjson`;
    inputs.push(input);
    const verdict = code === 0 && input.summaryPath ? 'PASS' : 'FAIL';
    const why =
      code === EXIT.thresholds
        ? ' (thresholds crossed)'
        : code !== 0
          ? ` (exit ${code}: ${await lastErrorLine(`${stem}.log`)}; log ${stem}.log)`
          : input.summaryPath
            ? ''
            : ' (no summary written)';
    // Which engine ran it, from run-k6.sh's line in the log: the runner's numbers are not k6's.
    const ranOn = describeEngine(await readEngine({ logPath: `${stem}.log` }));
    engines.add(ranOn);
    console.log(
      `${progress}: ${verdict}${why} in ${((Date.now() - started) / 1000).toFixed(1)}s on ${ranOn}`,
    );
  }

  const previous = await findPreviousRun(
    runsDir,
    runId,
    inputs.map((i) => i.scenario),
  );
  const { report, files } = await generateReports({
    inputs,
    outDir: resultsDir,
    previous,
    runId,
    title: 'Load test report (profile smoke)',
  });
  console.log(
    `test:report: ${report.passed ? 'PASS' : 'FAIL'} on ${[...engines].join(', ') || 'no engine'}; ${files.markdown}, ${files.html}, ${files.junit}${previous ? ` (compared with ${previous.runId})` : ''}`,
  );
  return report.passed && !interrupted ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`test:report: ${(e as Error).message}`);
    process.exit(2);
  },
);
