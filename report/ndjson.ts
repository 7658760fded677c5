// Streams a k6 `--out json` file (NDJSON, optionally gzipped) into a RunAggregator line by line, so
// files of any size are read in constant memory apart from what the aggregate itself keeps.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { parseNdjsonLine } from '@loadlab/k6-format/ndjson';
import type { MetricType, ValueType } from '@loadlab/k6-format/samples';
import type { RunAggregator } from './aggregate.js';
import { ReportInputError } from './errors.js';

export interface NdjsonStats {
  lines: number;
  points: number;
  skipped: number;
  badLines: number;
}

const TZ_SUFFIX = /(?:[Zz]|[+-]\d\d:?\d\d)$/;

/**
 * k6 writes RFC 3339 times with nanoseconds and the local offset. Parsing is the hot path, so the
 * whole-second part is parsed once per distinct second and cached; the fraction is added back.
 */
export function makeTimeParser(): (s: string) => number {
  let lastKey = '';
  let lastMs = 0;
  return (s: string) => {
    const tz = TZ_SUFFIX.exec(s)?.[0] ?? 'Z';
    const key = s.slice(0, 19) + tz;
    if (key !== lastKey) {
      lastMs = Date.parse(key);
      lastKey = key;
    }
    const dot = s.charAt(19) === '.' ? 20 : -1;
    if (dot < 0) return lastMs;
    const fraction = s.slice(dot, s.length - tz.length);
    return lastMs + Number(`0.${fraction}`) * 1000;
  };
}

const METRIC_FIELD = '"metric":"';

/** Reads one NDJSON file into `aggregator`. Malformed lines are counted, not fatal: k6 may be killed mid-write. */
export async function readNdjson(path: string, aggregator: RunAggregator): Promise<NdjsonStats> {
  const stats: NdjsonStats = { lines: 0, points: 0, skipped: 0, badLines: 0 };
  const kinds = new Map<string, { type: MetricType; contains?: ValueType }>();
  const parseTime = makeTimeParser();
  const file = createReadStream(path);
  const opened = new Promise<void>((resolve, reject) => {
    file.once('open', () => resolve());
    file.once('error', (e) => reject(new ReportInputError(`cannot read ${path}: ${(e as Error).message}`)));
  });
  await opened;
  const input = path.endsWith('.gz') ? file.pipe(createGunzip()) : file;
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      stats.lines++;
      if (line.length === 0) continue;
      // Cheap pre-filter: skip Point lines of metrics nobody needs without paying for JSON.parse.
      const at = line.indexOf(METRIC_FIELD);
      if (at >= 0 && line.indexOf('"type":"Metric"') < 0) {
        const name = line.slice(at + METRIC_FIELD.length, line.indexOf('"', at + METRIC_FIELD.length));
        if (!aggregator.wants(name)) {
          stats.skipped++;
          continue;
        }
      }
      const obj = parseNdjsonLine(line);
      if (!obj) {
        stats.badLines++;
        continue;
      }
      if (obj.type === 'Metric') {
        kinds.set(obj.data.name, { type: obj.data.type, contains: obj.data.contains });
        continue;
      }
      stats.points++;
      const kind = kinds.get(obj.metric);
      aggregator.add(
        obj.metric,
        kind?.type,
        parseTime(obj.data.time),
        obj.data.value,
        obj.data.tags ?? {},
        kind?.contains,
      );
    }
  } catch (e) {
    throw new ReportInputError(`cannot read ${path}: ${(e as Error).message}`);
  }
  return stats;
}
