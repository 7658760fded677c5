// Runs `loadlab` with this process's arguments and exits with its code, whatever handles are left open.
import { main } from '../main.js';
import { exitWith, leaveVusToExit } from '../host/process-exit.js';

export async function runCommandLine(): Promise<void> {
  let code: number;
  // The process ends with the run: what the VUs hold ends with it.
  leaveVusToExit();
  try {
    code = await main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(
      `loadlab: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  }
  // Worker threads and sockets are closed: the process ends by itself, or explicitly if a lingering
  // handle would hold it (host/process-exit.ts).
  exitWith(code);
}
