// `--out json=FILE`: k6's NDJSON. A `Metric` line the first time a metric appears (with its
// thresholds and sub-metrics), then one `Point` line per sample. `.gz` files are gzipped.
import { createWriteStream, type WriteStream } from 'node:fs';
import { createGzip, type Gzip } from 'node:zlib';
import { formatDuration, parseMetricKey, parseThresholds, type ThresholdDef } from '../metrics/index.js';
import type { Output, OutputContext, Sample } from '../types.js';
import { goPathError } from '@loadlab/k6-format/go-path-error';
import { metricLine, pointLine, type NdjsonSubmetric, type NdjsonThreshold } from '@loadlab/k6-format/ndjson';
import { rfc3339Nano } from './time-format.js';

interface MetricMeta {
  thresholds: NdjsonThreshold[];
  submetrics: NdjsonSubmetric[] | null;
}

// k6 (metrics/thresholds.go) writes a threshold with abortOnFail as its config object, with a
// delayAbortEval of null when none was given, and any other threshold as its source string.
function thresholdJson(d: ThresholdDef): NdjsonThreshold {
  if (!d.abortOnFail) return d.source;
  return {
    threshold: d.source,
    abortOnFail: true,
    delayAbortEval: d.delayAbortEvalMs ? formatDuration(d.delayAbortEvalMs) : null,
  };
}

function metricMeta(options: Record<string, unknown>): (name: string) => MetricMeta {
  let defs: ReturnType<typeof parseThresholds> = [];
  try {
    defs = parseThresholds(options.thresholds);
  } catch {
    // The runner has already refused invalid thresholds; nothing to describe here.
  }
  return (name) => {
    const own = defs.filter((d) => parseMetricKey(d.metricKey).name === name);
    const subKeys = [...new Set(own.map((d) => d.metricKey).filter((k) => k.includes('{')))];
    if (name === 'http_req_duration') subKeys.push('http_req_duration{expected_response:true}');
    const submetrics = subKeys.map((key) => ({
      name: key,
      suffix: key.slice(key.indexOf('{') + 1, key.lastIndexOf('}')),
      tags: Object.fromEntries(parseMetricKey(key).tags),
    }));
    return {
      thresholds: own.filter((d) => d.metricKey === name).map(thresholdJson),
      submetrics: submetrics.length ? submetrics : null,
    };
  };
}

export function createJsonOutput(ctx: OutputContext): Output {
  const path = ctx.argument;
  const describe = metricMeta(ctx.options);
  const seen = new Set<string>();
  let file: WriteStream | undefined;
  let sink: WriteStream | Gzip | undefined;
  let buffer: string[] = [];

  const flush = () => {
    if (buffer.length === 0 || !sink) return;
    sink.write(buffer.join(''));
    buffer = [];
  };
  const timer = setInterval(flush, 1000);
  timer.unref();

  return {
    description: `json (${path})`,
    async start() {
      if (!path) throw new Error('--out json needs a file: --out json=results/points.ndjson');
      // No folder is made for the file: k6 creates the file only, and a script that works here
      // must work on k6 too. Its error, as k6 prints it, stops the run (exit 255).
      file = createWriteStream(path);
      await new Promise<void>((resolve, reject) => {
        file!.once('open', () => resolve());
        file!.once('error', (error) => reject(new Error(goPathError('open', path, error))));
      });
      file.on('error', (e) => ctx.warn(`json output: ${e.message}`));
      if (path.endsWith('.gz')) {
        const gzip = createGzip();
        gzip.pipe(file);
        sink = gzip;
      } else {
        sink = file;
      }
    },
    addSamples(samples: readonly Sample[]) {
      for (const s of samples) {
        if (!seen.has(s.metric)) {
          seen.add(s.metric);
          const meta = describe(s.metric);
          buffer.push(metricLine(s.metric, s.type, s.contains, meta.thresholds, meta.submetrics));
        }
        buffer.push(pointLine(s.metric, rfc3339Nano(s.time), s.value, s.tags));
      }
      if (buffer.length > 5000) flush();
    },
    async stop() {
      clearInterval(timer);
      flush();
      if (!sink) return;
      await new Promise<void>((resolve) => sink!.end(() => resolve()));
      if (file && sink !== file)
        await new Promise<void>((resolve) =>
          file!.writableFinished ? resolve() : file!.once('finish', () => resolve()),
        );
    },
  };
}
