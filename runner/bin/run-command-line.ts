// Runs `loadlab` with this process's arguments and exits with its code, whatever handles are left open.
import { main } from '../main.js';
import { settleIsolates } from '../host/isolate-exit.js';

export async function runCommandLine(): Promise<void> {
  let code: number;
  try {
    code = await main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(
      `loadlab: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  }
  // Worker threads and sockets are closed; exit explicitly so a lingering handle never holds CI, once
  // no VU isolate's thread can still be tearing one down (host/isolate-exit.ts).
  await settleIsolates();
  process.stdout.write('', () => process.exit(code));
}
