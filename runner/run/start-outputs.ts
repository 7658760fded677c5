// The third phase: the outputs started (-o, the live dashboard) and k6's banner printed.
import type { RunFlags } from '../options/run-flags.js';
import type { TestConfig } from '../options/options.js';
import { createOutputs, dashboardOutput } from '../outputs/index.js';
import type { Output } from '../contracts.js';
import { banner, type ConsoleIO } from './console.js';
import { EXIT } from './exit-codes.js';
import type { RunLog } from './run-log.js';

/** The started outputs, or exit 255 after k6's line when one is unknown or cannot start. */
export async function startOutputs(
  config: TestConfig,
  scriptPath: string,
  flags: RunFlags,
  env: NodeJS.ProcessEnv,
  io: ConsoleIO,
  log: RunLog,
): Promise<Output[] | number> {
  const outputBase = {
    scriptPath,
    options: config.options,
    env: { ...env },
    warn: (message: string) => log('warn', message),
    log,
  };
  let outputs: Output[];
  try {
    outputs = await createOutputs(config.outs, outputBase);
    const dashboard = await dashboardOutput(config.outs, outputBase);
    if (dashboard) outputs.push(dashboard);
    for (const o of outputs) await o.start();
  } catch (error) {
    // An unknown output type and an output that cannot start (a file that cannot be written)
    // both stop the run before it begins. k6 v1.3 returns both as plain errors (cmd/run.go), so
    // it exits 255, not with its invalid-config code.
    log('error', (error as Error).message);
    return EXIT.plainError;
  }
  const dashboardUrl = (outputs.find((o) => 'url' in o) as { url?: string } | undefined)?.url;
  if (!flags.quiet) {
    io.out(
      banner(
        flags.script,
        outputs.filter((o) => !('url' in o)).map((o) => o.description),
        config.scenarios,
        dashboardUrl,
      ),
    );
  }
  return outputs;
}
