// `loadlab run <script> [flags]`: the k6-compatible Node runner's command line (bin/loadlab.js runs it).
import { parseRunArgs, UsageError } from './cli/args.js';
import { GLOBAL_FLAGS, ROOT_HELP, RUN_HELP, versionLine } from './cli/help.js';
import { RunController, runTest, EXIT } from './run/run.js';
import { logLine } from './run/console.js';
import { exitNow } from './host/process-exit.js';

/** How Go's os.Signal prints the signals k6 stops on. */
const GO_SIGNAL_NAMES: Partial<Record<NodeJS.Signals, string>> = {
  SIGINT: 'interrupt',
  SIGTERM: 'terminated',
};

/** The whole `loadlab` command line: `argv` without node and the script; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  // k6's persistent flags may come before the command: `loadlab -q run script.js`.
  const globals: string[] = [];
  for (;;) {
    const flag = argv[0];
    if (flag !== undefined && GLOBAL_FLAGS.includes(flag)) globals.push(argv.shift()!);
    else if (flag?.startsWith('--secret-source=')) globals.push(argv.shift()!);
    // The one global flag with a value: `--secret-source mock=k=v run script.js`.
    else if (flag === '--secret-source' && argv[1] !== undefined) globals.push(argv.shift()!, argv.shift()!);
    else break;
  }
  const [command, ...args] = argv;
  if (command === undefined || command === '-h' || command === '--help') {
    process.stdout.write(ROOT_HELP);
    return 0;
  }
  if (command === 'help') {
    const topic = args[0];
    if (topic === 'run') process.stdout.write(RUN_HELP);
    else {
      if (topic !== undefined && topic !== 'help')
        process.stdout.write(`Unknown help topic [\`${topic}\`]\n`);
      process.stdout.write(ROOT_HELP);
    }
    return 0;
  }
  if (command === 'version' || command === '--version') {
    process.stdout.write(versionLine());
    return 0;
  }
  if (command !== 'run') {
    process.stderr.write(`loadlab: unknown command "${command}" for "loadlab" (run, version, help)\n`);
    return 2;
  }
  if (args.includes('-h') || args.includes('--help')) {
    process.stdout.write(RUN_HELP);
    return 0;
  }
  const rest = [...globals, ...args];
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
  // k6's flag parser (cobra) prints its deprecation notices on stdout, before anything else.
  for (const line of flags.deprecations) process.stdout.write(`${line}\n`);
  const controller = new RunController();
  let signals = 0;
  // As k6: the first signal stops the run gracefully (its line comes at the end); the second ends
  // the process at once, after k6's line.
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    const name = GO_SIGNAL_NAMES[signal] ?? signal;
    if (signals > 1) {
      process.stderr.write(logLine('error', 'Aborting k6 in response to signal', { sig: name }));
      exitNow(EXIT.externalAbort);
      return;
    }
    controller.requestStop('signal', name);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return runTest(
    flags,
    {
      out: (t) => process.stdout.write(t),
      err: (t) => process.stderr.write(t),
      isTTY: Boolean(process.stdout.isTTY),
      columns: process.stdout.columns,
    },
    process.env,
    controller,
  );
}
