// Shared by the report's tests: real k6 samples as runner Samples, and a scenario's report to vary.
import { readFileSync } from 'node:fs';
import { parseNdjson } from '@loadlab/k6-format/ndjson';
import type { MetricType, Sample, ValueType } from '@loadlab/k6-format/samples';
import { K6_SAMPLES } from '../devkit/k6-reference.js';
import type { ScenarioReport, Totals } from './model.js';

export const SAMPLES_DIR = K6_SAMPLES;

/** points-head.ndjson as the runner would hand it to an output, shifted so the first sample is at `startMs`. */
export function samplesFromNdjson(path: string, startMs: number): Sample[] {
  const kinds = new Map<string, { type: MetricType; contains: ValueType }>();
  const out: Sample[] = [];
  let first: number | undefined;
  for (const o of parseNdjson(readFileSync(path, 'utf8'))) {
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

/**
 * A passed scenario of 100 requests in 10 s (p95 10 ms, no errors, no endpoint), with what a test
 * changes: `totals` merged into its totals, the rest of `changes` over the report.
 */
export function scenarioReport(
  changes: Partial<Omit<ScenarioReport, 'totals'>> & { totals?: Partial<Totals> } = {},
): ScenarioReport {
  const { totals, ...rest } = changes;
  return {
    scenario: 'smoke',
    passed: true,
    problems: [],
    totals: {
      durationMs: 10_000,
      requests: 100,
      rps: 10,
      errorRate: 0,
      p95: 10,
      avg: 5,
      checksPassed: 10,
      checksFailed: 0,
      iterations: 10,
      vusMax: 2,
      ...totals,
    },
    thresholds: [],
    checks: [],
    endpoints: [],
    statuses: [],
    errors: [],
    latencyLimits: [],
    ...rest,
  };
}
