// Shared by the report's tests: real k6 samples as runner Samples.
import { readFileSync } from 'node:fs';
import { parseNdjson } from '@loadlab/k6-format/ndjson';
import type { MetricType, Sample, ValueType } from '@loadlab/k6-format/samples';
import { K6_SAMPLES } from '../devkit/k6-reference.js';

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
