// k6 threshold grammar (metrics/thresholds_parser.go): `<aggregation> <operator> <number>` on a
// metric or tag-filtered sub-metric, in string or object form (abortOnFail, delayAbortEval).
import type { MetricType } from './samples.js';
import { parseDuration } from './duration.js';

export class ThresholdSyntaxError extends Error {}

export type Operator = '<' | '<=' | '>' | '>=' | '==' | '!=';

export interface ThresholdDef {
  /** As written in options.thresholds: `metric` or `metric{tag:value}`. */
  metricKey: string;
  /** The expression exactly as written; the key of `thresholds` in summaries. */
  source: string;
  abortOnFail: boolean;
  delayAbortEvalMs: number;
  /** Normalised statistic name: avg, min, max, med, count, rate, value or p(N). */
  aggregation: string;
  operator: Operator;
  value: number;
}

// Scanned in this order, as k6 does, so `<=` wins over `<` and `===` over `==`.
const OPERATORS: [string, Operator][] = [
  ['<=', '<='],
  ['<', '<'],
  ['>=', '>='],
  ['>', '>'],
  ['===', '=='],
  ['==', '=='],
  ['!=', '!='],
];

function parseAggregation(raw: string, source: string): string {
  const text = raw.trim();
  if (/^(avg|min|max|med|count|rate|value)$/.test(text)) return text;
  const p = /^p\(\s*([^)]*?)\s*\)$/.exec(text);
  if (p) {
    const n = Number(p[1]);
    if (p[1] === '' || !Number.isFinite(n) || n < 0 || n > 100) {
      throw new ThresholdSyntaxError(
        `failed parsing threshold expression "${source}"; reason: invalid percentile "${p[1]}"`,
      );
    }
    return `p(${n})`;
  }
  throw new ThresholdSyntaxError(
    `failed parsing threshold expression "${source}"; reason: unknown aggregation method "${text}"`,
  );
}

export function parseExpression(source: string): { aggregation: string; operator: Operator; value: number } {
  for (const [token, operator] of OPERATORS) {
    const at = source.indexOf(token);
    if (at < 0) continue;
    const aggregation = parseAggregation(source.slice(0, at), source);
    const rhs = source.slice(at + token.length).trim();
    const value = Number(rhs);
    if (rhs === '' || !Number.isFinite(value)) {
      throw new ThresholdSyntaxError(
        `failed parsing threshold expresion's "${source}" right hand side; reason: strconv.ParseFloat: parsing "${rhs}": invalid syntax`,
      );
    }
    return { aggregation, operator, value };
  }
  throw new ThresholdSyntaxError(
    `failed parsing threshold expression "${source}"; reason: no comparison operator found`,
  );
}

/** options.thresholds -> definitions; throws ThresholdSyntaxError (exit 104) on any bad entry. */
export function parseThresholds(raw: unknown): ThresholdDef[] {
  if (raw === undefined || raw === null) return [];
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw new ThresholdSyntaxError('thresholds must be an object');
  const defs: ThresholdDef[] = [];
  for (const [metricKey, list] of Object.entries(raw as Record<string, unknown>)) {
    const entries = Array.isArray(list) ? list : [list];
    for (const entry of entries) {
      if (typeof entry === 'string') {
        defs.push({
          metricKey,
          source: entry,
          abortOnFail: false,
          delayAbortEvalMs: 0,
          ...parseExpression(entry),
        });
        continue;
      }
      if (
        entry &&
        typeof entry === 'object' &&
        typeof (entry as { threshold?: unknown }).threshold === 'string'
      ) {
        const o = entry as { threshold: string; abortOnFail?: unknown; delayAbortEval?: unknown };
        const delay =
          o.delayAbortEval === undefined || o.delayAbortEval === '' ? 0 : parseDuration(o.delayAbortEval);
        defs.push({
          metricKey,
          source: o.threshold,
          abortOnFail: o.abortOnFail === true,
          delayAbortEvalMs: delay,
          ...parseExpression(o.threshold),
        });
        continue;
      }
      throw new ThresholdSyntaxError(
        `invalid threshold definition on ${metricKey}: ${JSON.stringify(entry)}`,
      );
    }
  }
  return defs;
}

const ALLOWED: Record<MetricType, string[]> = {
  counter: ['count', 'rate'],
  gauge: ['value'],
  rate: ['rate'],
  trend: ['avg', 'min', 'max', 'med', 'p'],
};

/** Checks an aggregation against the metric's type, with k6's message when it does not apply. */
export function validateAggregation(def: ThresholdDef, metricName: string, type: MetricType): void {
  const method = def.aggregation.startsWith('p(') ? 'p' : def.aggregation;
  if (!ALLOWED[type].includes(method)) {
    throw new ThresholdSyntaxError(
      `invalid threshold "${def.source}" applied on metric ${metricName}; reason: unsupported aggregation method ${method} on metric of type ${type}. supported aggregation methods for this metric are: ${ALLOWED[type].join(', ')}`,
    );
  }
}

export function compare(observed: number, operator: Operator, limit: number): boolean {
  switch (operator) {
    case '<':
      return observed < limit;
    case '<=':
      return observed <= limit;
    case '>':
      return observed > limit;
    case '>=':
      return observed >= limit;
    case '==':
      return observed === limit;
    case '!=':
      return observed !== limit;
  }
}

/** `http_req_duration{ status : "200", method:GET }` -> parent and tag pairs, per k6's rules. */
export function parseMetricKey(key: string): { name: string; tags: [string, string][] } {
  const open = key.indexOf('{');
  if (open < 0) return { name: key.trim(), tags: [] };
  if (!key.trimEnd().endsWith('}'))
    throw new ThresholdSyntaxError(`invalid sub-metric "${key}": missing "}"`);
  const name = key.slice(0, open).trim();
  const inner = key.slice(open + 1, key.trimEnd().length - 1).trim();
  const strip = (s: string) => s.trim().replace(/^["']+|["']+$/g, '');
  const tags: [string, string][] = inner
    .split(',')
    .filter((part) => part.trim() !== '')
    .map((part) => {
      const colon = part.indexOf(':');
      return colon < 0 ? [strip(part), ''] : [strip(part.slice(0, colon)), strip(part.slice(colon + 1))];
    });
  return { name, tags };
}
