// Loads a git-ignored .env when present, without overriding variables already set.
import { existsSync } from 'node:fs';

export function loadDotEnv(path = '.env'): void {
  if (existsSync(path)) process.loadEnvFile(path);
}
