// Turns the page's raw web-vital reports into browser_web_vital_* samples with k6's tags, reported
// when k6 v1.3 reports them (measured side by side): FCP, TTFB and FID when first seen; LCP at the
// first input (which makes it final) or when the page closes; CLS and INP only when the page closes.
// A document the page navigates away from loses its pending LCP, CLS and INP, as in k6, whose
// web-vitals library reports them from pagehide, too late for the leaving document to deliver.
import type { Sample, VuModuleEnv } from '../../contracts.js';

export type VitalName = 'fcp' | 'lcp' | 'cls' | 'ttfb' | 'inp' | 'fid';

export interface VitalReport {
  doc: string;
  url: string;
  name: VitalName | 'hidden' | 'input';
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
  lcpFinal?: boolean;
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
      this.finish(r.doc, false);
      return;
    }
    if (r.name === 'input') {
      doc.lcpFinal = true;
      this.emitLcp(doc);
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
    if (r.name === 'lcp' && doc.lcpFinal) return;
    doc.latest[r.name] = r.value;
  }

  private emitLcp(doc: DocState): void {
    const v = doc.latest.lcp;
    if (v === undefined || doc.sent.has('lcp')) return;
    doc.sent.add('lcp');
    this.emit('lcp', v, doc.url);
  }

  /** Applies what the page returned from its flush: the latest value of every vital it measured. */
  absorb(flushed: unknown): void {
    const f = flushed as { doc?: unknown; url?: unknown; values?: Record<string, unknown> } | null;
    if (!f || typeof f.doc !== 'string' || typeof f.url !== 'string' || !f.values) return;
    for (const [name, value] of Object.entries(f.values)) {
      if (typeof value === 'number') this.report({ doc: f.doc, url: f.url, name: name as VitalName, value });
    }
  }

  /**
   * Ends every document seen so far: `closing` (the page closes, k6 fires pagehide first) emits their
   * pending LCP, CLS and INP; a navigation away drops them, as k6 does.
   */
  finishAll(closing: boolean): void {
    for (const id of [...this.docs.keys()]) this.finish(id, closing);
  }

  private finish(id: string, closing: boolean): void {
    const doc = this.docs.get(id);
    if (!doc) return;
    this.docs.delete(id);
    this.finished.add(id);
    if (!closing) return;
    this.emitLcp(doc);
    for (const name of ['cls', 'inp'] as const) {
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
