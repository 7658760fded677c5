// `--out json=FILE`: k6's NDJSON. A `Metric` line the first time a metric appears (with its
// thresholds and sub-metrics), then one `Point` line per sample, each written as k6 writes it
// (k6-format/go-json.ts: Go's escapes, key order and numbers). `.gz` files are gzipped.
import { open, type FileHandle } from 'node:fs/promises';
import { constants, gzipSync } from 'node:zlib';
import { formatDuration, parseMetricKey, parseThresholds, type ThresholdDef } from '../metrics/index.js';
import type { Output, OutputContext, Sample } from '../contracts.js';
import { goPathError } from '@loadlab/k6-format/go-path-error';
import { metricLine, pointLine, type NdjsonSubmetric, type NdjsonThreshold } from '@loadlab/k6-format/ndjson';
import { goTagsJson } from '@loadlab/k6-format/go-json';
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

/** k6's json output flushes its buffer every 200 ms (output/json: flushPeriod). */
const FLUSH_MS = 200;

/**
 * The file the points go to, one write per flush, in order, each awaited before the next: a write
 * that fails (a full disk) costs that flush's points and one line, as in k6, and never a later one.
 * A `.gz` file gets one gzip member per flush (gzip readers read members one after the other), so
 * everything flushed before a hard stop decodes. Compressed here, at once: a streaming gzip on
 * Node's thread pool fell seconds behind a busy run (a round trip per 16 KiB through the main thread).
 */
class PointsFile {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: FileHandle,
    private readonly gzipped: boolean,
    private readonly failed: (error: unknown) => void,
  ) {}

  write(text: string): void {
    const bytes = this.gzipped ? gzipSync(text, { level: constants.Z_BEST_SPEED }) : Buffer.from(text);
    this.queue = this.queue.then(async () => {
      try {
        for (let at = 0; at < bytes.length;) at += (await this.file.write(bytes, at)).bytesWritten;
      } catch (error) {
        this.failed(error);
      }
    });
  }

  /** The last points written and the file closed. */
  async close(): Promise<void> {
    await this.queue;
    await this.file.close();
  }
}

export function createJsonOutput(ctx: OutputContext): Output {
  const path = ctx.argument;
  const describe = metricMeta(ctx.options);
  const seen = new Set<string>();
  let sink: PointsFile | undefined;
  let buffer: string[] = [];
  let lastTags: Sample['tags'] | undefined;
  let lastTagsJson = '';

  const flush = () => {
    if (buffer.length === 0 || !sink) return;
    sink.write(buffer.join(''));
    buffer = [];
  };
  const timer = setInterval(flush, FLUSH_MS);
  timer.unref();

  return {
    description: `json (${path})`,
    async start() {
      if (!path) throw new Error('--out json needs a file: --out json=results/points.ndjson');
      // No folder is made for the file: k6 creates the file only, and a script that works here
      // must work on k6 too. Its error, as k6 prints it, stops the run (exit 255).
      let file: FileHandle;
      try {
        file = await open(path, 'w');
      } catch (error) {
        throw new Error(goPathError('open', path, error), { cause: error });
      }
      sink = new PointsFile(file, path.endsWith('.gz'), (error) => {
        // k6's line for a flush it could not write, with its logger's fields.
        const message = "Sample couldn't be marshalled to JSON";
        const fields = { error: goPathError('write', path, error), filename: path, output: 'json' };
        if (ctx.log) ctx.log('error', message, fields);
        else ctx.warn(`${message}: ${fields.error}`);
      });
    },
    addSamples(samples: readonly Sample[]) {
      for (const s of samples) {
        if (!seen.has(s.metric)) {
          seen.add(s.metric);
          const meta = describe(s.metric);
          buffer.push(metricLine(s.metric, s.type, s.contains, meta.thresholds, meta.submetrics));
        }
        // A request's samples share one tags object: its tags are written once.
        if (s.tags !== lastTags) {
          lastTags = s.tags;
          lastTagsJson = goTagsJson(s.tags);
        }
        buffer.push(pointLine(s.metric, rfc3339Nano(s.time), s.value, s.tags, lastTagsJson, s.metadata));
      }
      if (buffer.length > 5000) flush();
    },
    async stop() {
      clearInterval(timer);
      flush();
      await sink?.close();
    },
  };
}
