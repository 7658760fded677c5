// InfluxDB line protocol exactly as k6 writes it: measurement = metric, sorted non-empty tags,
// `url` (and other tags-as-fields) as string fields, `value` as a Go-formatted float, ns time.
import type { Sample } from '../contracts.js';
import { epochNanos, goFloat } from './time-format.js';

const escapeKey = (s: string) => s.replace(/[,= \\]/g, (c) => `\\${c}`);
const escapeMeasurement = (s: string) => s.replace(/[, \\]/g, (c) => `\\${c}`);
const escapeStringField = (s: string) => s.replace(/["\\]/g, (c) => `\\${c}`);

export function toLine(
  sample: Sample,
  tagsAsFields: ReadonlySet<string>,
  extraTags: Record<string, string> = {},
): string | undefined {
  if (!Number.isFinite(sample.value)) return undefined;
  const tags: string[] = [];
  const fields: string[] = [];
  const all = { ...extraTags, ...sample.tags };
  for (const key of Object.keys(all).sort()) {
    const value = all[key]!;
    if (tagsAsFields.has(key)) {
      fields.push(`${escapeKey(key)}="${escapeStringField(value)}"`);
    } else if (value !== '') {
      tags.push(`${escapeKey(key)}=${escapeKey(value)}`);
    }
  }
  fields.push(`value=${goFloat(sample.value)}`);
  fields.sort();
  const head = [escapeMeasurement(sample.metric), ...tags].join(',');
  return `${head} ${fields.join(',')} ${epochNanos(sample.time)}`;
}

/** K6_INFLUXDB_TAGS_AS_FIELDS: `name[:type]` entries; vu and iter are metadata here, not tags. */
export function tagsAsFields(raw: string | undefined, fallback: string): Set<string> {
  return new Set(
    (raw ?? fallback)
      .split(',')
      .map((entry) => entry.split(':')[0]!.trim())
      .filter(Boolean),
  );
}
