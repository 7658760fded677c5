// Number formatting shared by the Markdown, JUnit and HTML renderers (ui/client.js is bundled with it).

export function ms(v: number | undefined | null): string {
  if (v === undefined || v === null || !Number.isFinite(v)) return 'n/a';
  if (v >= 1000) return `${(v / 1000).toFixed(2)} s`;
  if (v >= 100) return `${v.toFixed(0)} ms`;
  if (v >= 1) return `${v.toFixed(1)} ms`;
  return `${v.toFixed(2)} ms`;
}

export function pct(v: number | undefined | null): string {
  if (v === undefined || v === null || !Number.isFinite(v)) return 'n/a';
  return `${(v * 100).toFixed(2)} %`;
}

export function num(v: number | undefined | null, digits = 2): string {
  if (v === undefined || v === null || !Number.isFinite(v)) return 'n/a';
  return Number.isInteger(v) ? String(v) : v.toFixed(digits);
}

export function bytes(v: number | undefined): string {
  if (v === undefined || !Number.isFinite(v)) return 'n/a';
  if (v >= 1024 * 1024) return `${(v / 1024 / 1024).toFixed(1)} MB`;
  if (v >= 1024) return `${(v / 1024).toFixed(1)} kB`;
  return `${v} B`;
}

export interface ObservedRow {
  observed?: number;
  unit: string;
  stat?: string;
  type?: string;
  samples?: number;
  hits?: number;
}

/**
 * A threshold k6 evaluated on an empty metric: k6 passes it on zeros, the report says `no data`
 * (a counter's or gauge's 0 is a real value, so those keep their verdict).
 */
export function noData(row: Pick<ObservedRow, 'samples' | 'type'>): boolean {
  return row.samples === 0 && row.type !== 'counter' && row.type !== 'gauge';
}

/**
 * A threshold's observed value as a reader compares it with the expression: a rate metric as a
 * percentage with its counts (`0.42 % (3/712)`), an empty metric as `no samples` rather than k6's 0.
 */
export function observed(row: ObservedRow): string {
  if (noData(row)) return 'no samples';
  if (row.observed === undefined) return 'n/a';
  if (row.unit === 'ms') return ms(row.observed);
  if (row.unit === 'B') return bytes(row.observed);
  if (row.type === 'rate' && row.stat === 'rate') {
    const counts = row.samples !== undefined && row.hits !== undefined ? ` (${row.hits}/${row.samples})` : '';
    return `${pct(row.observed)}${counts}`;
  }
  return num(row.observed, row.stat === 'rate' ? 4 : 2);
}

export function duration(msValue: number): string {
  // Round to whole seconds first, so 119.6 s reads 2m0s and never 1m60s.
  if (msValue >= 59_950) {
    const total = Math.round(msValue / 1000);
    return `${Math.floor(total / 60)}m${total % 60}s`;
  }
  return `${(msValue / 1000).toFixed(1)}s`;
}

/** Delta of a comparison row in the row's unit, signed. */
export function delta(kind: 'latency' | 'rate' | 'throughput', d: number | undefined): string {
  if (d === undefined) return 'n/a';
  const sign = d > 0 ? '+' : d < 0 ? '-' : '±';
  const a = Math.abs(d);
  if (kind === 'latency') return sign + ms(a);
  if (kind === 'rate') return `${sign}${(a * 100).toFixed(2)} pp`;
  return `${sign}${a.toFixed(2)}/s`;
}

export function value(kind: 'latency' | 'rate' | 'throughput', v: number | undefined): string {
  return kind === 'latency'
    ? ms(v)
    : kind === 'rate'
      ? pct(v)
      : v === undefined
        ? 'n/a'
        : `${v.toFixed(2)}/s`;
}

/** Why some thresholds show "no data": k6 passes a threshold on an empty metric, the report says so. */
export function noDataNote(n: number): string {
  return `${n} threshold${n === 1 ? '' : 's'} had no samples: k6 passes ${n === 1 ? 'it' : 'them'} on an empty metric; shown as no data.`;
}
