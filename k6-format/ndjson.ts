// k6's `--out json` file (NDJSON): a `Metric` line the first time a metric appears (its type, thresholds
// and sub-metrics), then one `Point` line per sample. One writer and one reader of a line, and one reader
// of a whole text, shared by the runner's output, the report, the conformance shapes, the benchmarks
// and the tests.
import { goJsonNumber, goJsonString, goTagsJson } from './go-json.js';
import type { MetricType, ValueType } from './samples.js';

/** A threshold as k6 writes it: its source, or its config when it can abort the test. */
export type NdjsonThreshold =
  string | { threshold: string; abortOnFail: true; delayAbortEval: string | null };

export interface NdjsonSubmetric {
  name: string;
  suffix: string;
  tags: Record<string, string>;
}

export interface NdjsonMetricLine {
  type: 'Metric';
  data: {
    name: string;
    type: MetricType;
    contains: ValueType;
    thresholds: NdjsonThreshold[];
    submetrics: NdjsonSubmetric[] | null;
  };
  metric: string;
}

export interface NdjsonPointLine {
  metric: string;
  type: 'Point';
  /** time: RFC 3339 with nanoseconds and the local offset, as k6 writes it. */
  data: {
    time: string;
    value: number;
    tags: Record<string, string> | null;
    /** k6's sample metadata (the `vu` and `iter` system tags, exec.vu.metrics.metadata), when any. */
    metadata?: Record<string, string>;
  };
}

export type NdjsonLine = NdjsonMetricLine | NdjsonPointLine;

/**
 * A Metric line (with its newline), fields in k6's order, written as k6 writes it (go-json.ts): the
 * sub-metrics' strings escaped as easyjson escapes them and their tags in Go's order; the thresholds,
 * which k6 encodes apart, as JSON.stringify writes them (k6 leaves their `<` as it is).
 */
export function metricLine(
  name: string,
  type: MetricType,
  contains: ValueType,
  thresholds: NdjsonThreshold[] = [],
  submetrics: NdjsonSubmetric[] | null = null,
): string {
  const subs =
    submetrics === null
      ? 'null'
      : `[${submetrics
          .map(
            (sub) =>
              `{"name":${goJsonString(sub.name)},"suffix":${goJsonString(sub.suffix)},"tags":${goTagsJson(sub.tags)}}`,
          )
          .join(',')}]`;
  const metric = goJsonString(name);
  return (
    `{"type":"Metric","data":{"name":${metric},"type":${goJsonString(type)},"contains":${goJsonString(contains)},` +
    `"thresholds":${JSON.stringify(thresholds)},"submetrics":${subs}},"metric":${metric}}\n`
  );
}

/**
 * A Point line (with its newline), fields in k6's order, written as k6 writes it (go-json.ts). `tagsJson`:
 * the tags already written by goTagsJson (samples of one request share their tags).
 */
export function pointLine(
  metric: string,
  time: string,
  value: number,
  tags: Readonly<Record<string, string>> | null,
  tagsJson = tags === null ? 'null' : goTagsJson(tags),
  metadata?: Readonly<Record<string, string>>,
): string {
  // k6 leaves out empty metadata (omitempty); a Go map's keys come in no set order, these in the VU's.
  const meta =
    metadata && Object.keys(metadata).length > 0 ? `,"metadata":${goTagsJson(metadata, false)}` : '';
  return `{"metric":${goJsonString(metric)},"type":"Point","data":{"time":"${time}","value":${goJsonNumber(value)},"tags":${tagsJson}${meta}}}\n`;
}

/**
 * One line read back, or undefined when it is not a whole Metric or Point line (k6 may be killed
 * mid-write, so a reader counts such lines rather than failing).
 */
export function parseNdjsonLine(text: string): NdjsonLine | undefined {
  let line: Partial<NdjsonLine>;
  try {
    line = JSON.parse(text) as Partial<NdjsonLine>;
  } catch {
    return undefined;
  }
  if (line?.type === 'Metric')
    return typeof line.data?.name === 'string' ? (line as NdjsonMetricLine) : undefined;
  if (line?.type === 'Point') {
    const data = line.data as Partial<NdjsonPointLine['data']> | undefined;
    return typeof line.metric === 'string' && typeof data?.value === 'number' && typeof data.time === 'string'
      ? (line as NdjsonPointLine)
      : undefined;
  }
  return undefined;
}

/**
 * Every Metric and Point line of a `--out json` text, in order; blank lines are skipped. Any other
 * line throws, naming it, except with `cutShort` a last line a killed run left unfinished.
 */
export function parseNdjson(text: string, { cutShort = false }: { cutShort?: boolean } = {}): NdjsonLine[] {
  const texts = text.split('\n');
  const lines: NdjsonLine[] = [];
  texts.forEach((raw, i) => {
    if (raw.trim() === '') return;
    const line = parseNdjsonLine(raw);
    if (line) lines.push(line);
    else if (!(cutShort && i === texts.length - 1))
      throw new Error(`line ${i + 1} is not a k6 NDJSON line: ${raw.slice(0, 200)}`);
  });
  return lines;
}

/** The Point lines of a `--out json` text: of one metric, of those `metric` picks, or all. */
export function ndjsonPoints(
  text: string,
  metric: string | ((name: string) => boolean) = () => true,
  options: { cutShort?: boolean } = {},
): NdjsonPointLine[] {
  const picks = typeof metric === 'string' ? (name: string) => name === metric : metric;
  return parseNdjson(text, options).filter(
    (line): line is NdjsonPointLine => line.type === 'Point' && picks(line.metric),
  );
}
