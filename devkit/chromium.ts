// A real Chromium for tests that look at pages (the report, the live dashboard, the sandbox's pages),
// and a place for their screenshots. The same Debian Chromium the k6/browser module drives, launched
// headless with the runner's own default flags (no sandbox for a root container, no background
// traffic a closed network would refuse): one list, so the tests' browser is the runner's.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { DEFAULT_ARGS, DEFAULT_EXECUTABLE } from '../runner/modules/browser/launch.js';

export function launchChromium(): Promise<Browser> {
  const executablePath = process.env.K6_BROWSER_EXECUTABLE_PATH || DEFAULT_EXECUTABLE;
  return chromium.launch({ executablePath, args: ['--headless', ...DEFAULT_ARGS] });
}

let artifacts: string | undefined;

/**
 * Where tests put screenshots and PDFs: LT_TEST_ARTIFACTS when set (kept, for a person or a CI upload),
 * else a temporary folder removed when the process exits. Never the user's results/: a test run
 * there mixed its files into the lab's report (issue 31).
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
