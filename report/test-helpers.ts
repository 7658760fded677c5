// Shared by the report's tests: real k6 samples as runner Samples, and a real Chromium.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { DEFAULT_ARGS, DEFAULT_EXECUTABLE } from '../runner/modules/browser/launch.js';
import type { MetricType, Sample, ValueType } from '../runner/types.js';
import { K6_SAMPLES } from '../fixtures/k6-reference/paths.js';

export const SAMPLES_DIR = K6_SAMPLES;

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

/** points-head.ndjson as the runner would hand it to an output, shifted so the first sample is at `startMs`. */
export function samplesFromNdjson(path: string, startMs: number): Sample[] {
  const kinds = new Map<string, { type: MetricType; contains: ValueType }>();
  const out: Sample[] = [];
  let first: number | undefined;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue;
    const o = JSON.parse(line);
    if (o.type === 'Metric') {
      kinds.set(o.data.name, { type: o.data.type, contains: o.data.contains });
      continue;
    }
    const t = Date.parse(o.data.time);
    first ??= t;
    const k = kinds.get(o.metric) ?? { type: 'counter' as const, contains: 'default' as const };
    out.push({
      metric: o.metric,
      ...k,
      value: o.data.value,
      tags: o.data.tags ?? {},
      time: startMs + (t - first),
    });
  }
  return out;
}

/** The same Chromium and flags the k6/browser module uses, headless. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: DEFAULT_EXECUTABLE, args: ['--headless', ...DEFAULT_ARGS] });
}

export function artifactPath(name: string): string {
  return join(artifactsDir(), name);
}
