// Structured JSON logs (pino), level from LOG_LEVEL; silent under tests unless asked for.
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

// One stdout stream for every logger of the process: each pino() would get its own asynchronous
// stream, and lines of two loggers came out of order (start:services said 'all services ready' before
// the clinic's 'listening' line for 9967, still queued in the clinic's stream).
let stdout: DestinationStream | undefined;

export function createLogger(name: string, env: NodeJS.ProcessEnv = process.env): Logger {
  const level = env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info');
  stdout ??= pino.destination({ dest: 1, sync: false });
  return pino({ name, level }, stdout);
}
