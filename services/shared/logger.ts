// Structured JSON logs (pino), level from LOG_LEVEL; silent under tests unless asked for.
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(name: string, env: NodeJS.ProcessEnv = process.env): Logger {
  const level = env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info');
  return pino({ name, level });
}
