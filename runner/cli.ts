// `loadlab run <script> [flags]`: the k6-compatible Node runner's command line.
import { parseRunArgs, UsageError } from './core/args.js';
import { RunController, runTest, EXIT } from './core/run.js';

const USAGE = `usage: loadlab run <script.js|.ts> [flags]

flags (as k6 run):
  -u, --vus N                 virtual users
  -d, --duration D            test duration (e.g. 30s, 5m)
  -i, --iterations N          total iterations (shared among VUs)
  -s, --stage D:N             ramping stage (repeatable)
  -e, --env K=V               script environment variable (repeatable)
      --tag K=V               tag on every sample (repeatable)
  -o, --out OUT               json=FILE | influxdb=URL | xk6-influxdb[=URL] | web-dashboard
      --summary-export FILE   old-format JSON summary
      --summary-trend-stats L comma-separated trend stats
      --summary-mode M        compact | full | legacy | disabled (also --no-summary)
      --no-thresholds         do not evaluate thresholds
  -q, --quiet                 no banner, no progress
      --no-color              plain text summary
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '-h' || command === '--help' || command === 'help') {
    process.stdout.write(USAGE);
    return command ? 0 : 2;
  }
  if (command !== 'run') {
    process.stderr.write(`loadlab: unknown command "${command}" (only "run" exists)\n`);
    return 2;
  }
  let flags;
  try {
    flags = parseRunArgs(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`loadlab: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  for (const line of flags.deprecations) process.stderr.write(`${line}\n`);
  const controller = new RunController();
  let signals = 0;
  const onSignal = () => {
    signals += 1;
    if (signals > 1) process.exit(EXIT.externalAbort);
    process.stderr.write('\nstopping gracefully (Ctrl-C again to stop at once)\n');
    controller.requestStop('signal');
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return runTest(
    flags,
    {
      out: (t) => process.stdout.write(t),
      err: (t) => process.stderr.write(t),
      isTTY: Boolean(process.stdout.isTTY),
    },
    process.env,
    controller,
  );
}

main(process.argv.slice(2)).then(
  (code) => {
    // Worker threads and sockets are closed; exit explicitly so a lingering handle never holds CI.
    process.stdout.write('', () => process.exit(code));
  },
  (error: unknown) => {
    process.stderr.write(
      `loadlab: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
