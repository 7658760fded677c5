// The one finder of a real k6 (>= 1.0) to compare the runner with: REAL_K6, else the reference engine
// beside the repository (../shared/tools/k6, which a user's clone lacks), else a k6 on PATH. Tests that
// need it skip with NO_REAL_K6 where there is none.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../', import.meta.url));

/** k6 >= 1.0 at this path, by asking it its version. */
function isK6AtLeast1(path: string): boolean {
  const probe = spawnSync(path, ['version'], { encoding: 'utf8' });
  const major = /k6 v(\d+)\./.exec(probe.stdout ?? '')?.[1];
  return probe.status === 0 && Number(major) >= 1;
}

let realK6Found: string | null | undefined;

/**
 * A real k6 (>= 1.0) to compare with: REAL_K6, else the reference engine beside the repository
 * (../shared/tools/k6, which a user's clone lacks), else a k6 on PATH. Undefined when none.
 */
export function realK6(): string | undefined {
  if (realK6Found === undefined) {
    const candidates = [process.env.REAL_K6, resolve(REPO, '../shared/tools/k6')].filter(
      (c): c is string => Boolean(c) && existsSync(c!),
    );
    realK6Found = [...candidates.map((c) => resolve(c)), 'k6'].find(isK6AtLeast1) ?? null;
  }
  return realK6Found ?? undefined;
}

/** Why a real-k6 test is skipped, in one line. */
export const NO_REAL_K6 = 'no real k6 here (REAL_K6, ../shared/tools/k6 or k6 >= 1.0 on PATH)';

export function realK6Available(): boolean {
  return realK6() !== undefined;
}
