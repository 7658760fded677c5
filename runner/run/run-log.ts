// The run's logger: k6's logfmt lines on stderr, with every secret the script has read redacted
// (k6 redacts them from every later line, its own lines included).
import type { SecretRedactor } from '../options/secret-sources.js';
import { logLine, type ConsoleIO } from './console.js';
import { EXIT } from './exit-codes.js';

export type RunLog = (level: string, msg: string, fields?: Record<string, string>) => void;

export function runLog(io: ConsoleIO, redactor: SecretRedactor): RunLog {
  return (level, msg, fields) => io.err(logLine(level, redactor.redact(msg), redactor.fields(fields)));
}

/**
 * An exception in the script's init, setup or teardown: k6's line with its hint, and exit 107. An
 * init that threw in a VU after VU 0 is named: "error while initializing VU #2 (script exception)".
 */
export function scriptException(log: RunLog, error: unknown, vuId?: number): number {
  const hint =
    vuId === undefined ? 'script exception' : `error while initializing VU #${vuId} (script exception)`;
  log('error', (error as Error).message, { hint });
  return EXIT.scriptException;
}

/** exec.test.abort()'s error, as a VU reports it from init or setup: `test aborted: <reason> at <frame>`. */
export function isTestAbort(message: string): boolean {
  return message.startsWith('test aborted: ');
}

/** k6 reports an abort in setup without the VU's location. */
export function withoutLocation(message: string): string {
  const at = message.lastIndexOf(' at ');
  return at < 0 ? message : message.slice(0, at);
}
