// A real Chromium for tests that look at pages (the report, the live dashboard, the sandbox's pages),
// and a place for their screenshots. Launched with k6/browser's own recipe (k6-format/browser-launch.ts:
// K6_BROWSER_EXECUTABLE_PATH, K6_BROWSER_ARGS, K6_BROWSER_TIMEOUT and the lab's flags), headless, so
// the tests' browser is the one the runner drives.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { launchOptions } from '@loadlab/k6-format/browser-launch';

/** Chromium as k6/browser launches it from this environment, always headless. */
export function launchChromium(env: Record<string, string | undefined> = process.env): Promise<Browser> {
  return chromium.launch({ ...launchOptions(env), headless: true });
}

let artifacts: string | undefined;

/**
 * Where tests put screenshots and PDFs: LT_TEST_ARTIFACTS when set (kept, for a person or a CI upload),
 * else a temporary folder removed when the process exits. Never the user's results/: a test run
 * there mixed its files into the lab's report.
 */
export function artifactsDir(): string {
  if (artifacts) return artifacts;
  const kept = process.env.LT_TEST_ARTIFACTS;
  if (kept) {
    mkdirSync(kept, { recursive: true });
    artifacts = kept;
  } else {
    const made = mkdtempSync(join(tmpdir(), 'loadlab-test-artifacts-'));
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    artifacts = made;
  }
  return artifacts;
}

/** Where a test saves a screenshot a person may want to look at (see artifactsDir). */
export function artifactPath(name: string): string {
  return join(artifactsDir(), name);
}
