// Where the reference k6 (real k6 v1.3.0) is: REAL_K6, else ../shared/tools/k6 beside the repository.
// A user's clone has neither; tests that need it skip with one line.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function realK6(): string | undefined {
  const candidates = [process.env.REAL_K6, fileURLToPath(new URL('../../shared/tools/k6', import.meta.url))];
  return candidates.find((path): path is string => Boolean(path) && existsSync(path!));
}
