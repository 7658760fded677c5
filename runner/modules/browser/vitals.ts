// Turns the page's raw web-vital reports into browser_web_vital_* samples with k6's tags.
// FCP, TTFB and FID are final when first seen; LCP, CLS and INP keep changing while the document
// lives, so their latest value is emitted once, when the document goes away (navigation, pagehide,
// page close), which is also when k6 (through the web-vitals library) reports them.
import type { Sample, VuModuleEnv } from '../../types.js';

export type VitalName = 'fcp' | 'lcp' | 'cls' | 'ttfb' | 'inp' | 'fid';

export interface VitalReport {
  doc: string;
  url: string;
  name: VitalName | 'hidden';
  value: number;
}

/** Upper bounds of "good" and "needs improvement" (web.dev definitions). */
const RATING_BOUNDS: Record<VitalName, [number, number]> = {
  fcp: [1800, 3000],
  lcp: [2500, 4000],
  cls: [0.1, 0.25],
  ttfb: [800, 1800],
  inp: [200, 500],
  fid: [100, 300],
};

export function rateVital(name: VitalName, value: number): 'good' | 'needs_improvement' | 'poor' {
  const [good, poor] = RATING_BOUNDS[name];
  if (value <= good) return 'good';
  return value <= poor ? 'needs_improvement' : 'poor';
}

const ONCE: ReadonlySet<VitalName> = new Set(['fcp', 'ttfb', 'fid']);

interface DocState {
  url: string;
  latest: Partial<Record<VitalName, number>>;
  sent: Set<VitalName>;
}

export class VitalsTracker {
  private readonly docs = new Map<string, DocState>();
  private readonly finished = new Set<string>();

  constructor(private readonly env: VuModuleEnv) {}

  report(r: VitalReport): void {
    if (this.finished.has(r.doc) || typeof r.value !== 'number' || !Number.isFinite(r.value)) return;
    let doc = this.docs.get(r.doc);
    if (!doc) {
      doc = { url: r.url, latest: {}, sent: new Set() };
      this.docs.set(r.doc, doc);
    }
    if (r.name === 'hidden') {
      this.finish(r.doc);
      return;
    }
    if (!(r.name in RATING_BOUNDS)) return;
    if (ONCE.has(r.name)) {
      if (!doc.sent.has(r.name)) {
        doc.sent.add(r.name);
        this.emit(r.name, r.value, doc.url);
      }
      return;
    }
    doc.latest[r.name] = r.value;
  }

  /** Applies what the page returned from its flush: the latest value of every vital it measured. */
  absorb(flushed: unknown): void {
    const f = flushed as { doc?: unknown; url?: unknown; values?: Record<string, unknown> } | null;
    if (!f || typeof f.doc !== 'string' || typeof f.url !== 'string' || !f.values) return;
    for (const [name, value] of Object.entries(f.values)) {
      if (typeof value === 'number') this.report({ doc: f.doc, url: f.url, name: name as VitalName, value });
    }
  }

  /** Emits the pending LCP/CLS/INP of every document seen so far (the page navigated or closed). */
  finishAll(): void {
    for (const id of [...this.docs.keys()]) this.finish(id);
  }

  private finish(id: string): void {
    const doc = this.docs.get(id);
    if (!doc) return;
    this.docs.delete(id);
    this.finished.add(id);
    for (const name of ['lcp', 'cls', 'inp'] as const) {
      const v = doc.latest[name];
      if (v !== undefined) this.emit(name, v, doc.url);
    }
  }

  private emit(name: VitalName, value: number, url: string): void {
    const sample: Sample = {
      metric: `browser_web_vital_${name}`,
      type: 'trend',
      contains: name === 'cls' ? 'default' : 'time',
      value,
      tags: { ...this.env.currentTags(), name: url, url, rating: rateVital(name, value) },
      time: Date.now(),
    };
    this.env.emit([sample]);
  }
}
