// The one Chromium launch recipe: k6's K6_BROWSER_* variables as k6/browser reads them from the
// environment, plus the lab's default flags. The runner's k6/browser, the dev kit's test browser, the
// docs server's PDF export and stack:verify's screenshots all launch with it.
import { accessSync, constants, statSync } from 'node:fs';
import { parseDuration } from './duration.js';

export const DEFAULT_EXECUTABLE = '/usr/bin/chromium';

/** Flags the lab always passes: headless-friendly, no sandbox (containers/root), no background traffic. */
export const DEFAULT_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** K6_BROWSER_ARGS is a comma list of flags without leading dashes, e.g. `no-sandbox,window-size=800,600`. */
export function parseBrowserArgs(raw: string | undefined): string[] {
  if (!raw) return [];
  // A comma inside a value (window-size=800,600) belongs to the previous flag: split only before a name.
  const parts = raw.split(/,(?=\s*-{0,2}[a-zA-Z])/);
  return parts
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => (p.startsWith('-') ? p : `--${p}`));
}

/** K6_BROWSER_TIMEOUT as a k6 duration (`30s`, `1m`, `500ms`; a bare number is seconds). */
export function parseTimeoutMs(raw: string | undefined, fallbackMs: number): number {
  if (!raw) return fallbackMs;
  try {
    return parseDuration(raw);
  } catch {
    throw new Error(`invalid K6_BROWSER_TIMEOUT "${raw}" (use e.g. 30s or 1m)`);
  }
}

/** What Chromium is launched with (a subset of playwright-core's LaunchOptions). */
export interface BrowserLaunchOptions {
  executablePath: string;
  headless: boolean;
  args: string[];
  timeout: number;
}

export function launchOptions(env: Record<string, string | undefined>): BrowserLaunchOptions {
  const headless = (env.K6_BROWSER_HEADLESS ?? 'true').toLowerCase() !== 'false';
  const extra = parseBrowserArgs(env.K6_BROWSER_ARGS);
  return {
    executablePath: env.K6_BROWSER_EXECUTABLE_PATH || DEFAULT_EXECUTABLE,
    headless,
    args: [...new Set([...DEFAULT_ARGS, ...extra])],
    timeout: parseTimeoutMs(env.K6_BROWSER_TIMEOUT, 30_000),
  };
}

/** Whether a path names an executable file, as Go's exec.LookPath checks a path with a slash. */
function isExecutableFile(path: string): boolean {
  try {
    if (statSync(path).isDirectory()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Why Chromium did not start, in k6's words (chromium/browser_type.go), on one line. */
export function launchFailure(executablePath: string, err: Error): string {
  if (!isExecutableFile(executablePath)) {
    return `finding browser executable: k6 couldn't detect google chrome or a chromium-supported browser on the given path: ${executablePath}`;
  }
  return `launching browser: ${err.message.split('\n')[0]}`;
}
