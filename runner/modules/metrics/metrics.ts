// `k6/metrics`: Counter, Gauge, Rate, Trend (internal/js/modules/k6/metrics/metrics.go semantics).
import type { MetricType, ValueType } from '../../contracts.js';
import { nowMs, type VuRuntime } from '../api/runtime.js';

/** The name rule the k6 build this project matches enforces (k6-golden/exit_code_runs.txt). */
export const METRIC_NAME_RE = /^[a-zA-Z_][a-zA-Z0-9_]{1,128}$/;

export function createMetricsModule(rt: VuRuntime): Record<string, unknown> {
  function makeClass(type: MetricType): unknown {
    return class Metric {
      readonly name: string;
      readonly type: MetricType = type;
      readonly contains: ValueType;
      constructor(name: unknown, isTime?: unknown) {
        if (rt.phase !== 'init') throw new Error('metrics must be declared in the init context');
        const n = String(name);
        if (!METRIC_NAME_RE.test(n)) {
          throw new Error(
            `Invalid metric name: '${n}'. Metric names must match ^[a-zA-Z_][a-zA-Z0-9_]{1,128}$`,
          );
        }
        this.name = n;
        this.contains = isTime ? 'time' : 'default';
        rt.declareMetric(n, type, this.contains);
      }
      add(value: unknown, tags?: Record<string, unknown>): boolean {
        if (rt.phase === 'init') throw new Error('metrics cannot be added in the init context');
        let v: number;
        if (typeof value === 'boolean') v = value ? 1 : 0;
        else v = Number(value);
        if (value === null || value === undefined || Number.isNaN(v)) {
          rt.log('warn', `Metric ${this.name}: invalid value ${String(value)}, sample dropped`);
          return false;
        }
        if (type === 'rate') v = v !== 0 ? 1 : 0;
        const extra: Record<string, string> = {};
        if (tags && typeof tags === 'object') for (const [k, t] of Object.entries(tags)) extra[k] = String(t);
        rt.emit({
          metric: this.name,
          type,
          contains: this.contains,
          value: v,
          tags: { ...rt.currentTags(), ...extra },
          time: nowMs(),
        });
        return true;
      }
    };
  }
  const mod = {
    Counter: makeClass('counter'),
    Gauge: makeClass('gauge'),
    Rate: makeClass('rate'),
    Trend: makeClass('trend'),
  };
  return mod;
}
