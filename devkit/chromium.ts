// A real Chromium for tests that look at pages (the report, the live dashboard, the sandbox's pages),
// and a place for their screenshots. The same Debian Chromium the k6/browser module drives, launched
// headless with what a root container needs (no sandbox) and no background traffic (a closed network
// refuses it).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const QUIET = ['--disable-component-update', '--disable-sync', '--no-first-run'];

export function launchChromium(): Promise<Browser> {
  const executablePath = process.env.K6_BROWSER_EXECUTABLE_PATH || '/usr/bin/chromium';
  return chromium.launch({ executablePath, args: [...FLAGS, ...QUIET] });
}

export const ARTIFACTS = join(fileURLToPath(new URL('../', import.meta.url)), 'results', 'test-artifacts');

/** Where a test saves a screenshot a person may want to look at. */
export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}
