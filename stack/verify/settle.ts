// When a Grafana 11.6 dashboard has "settled" enough to judge and photograph, decided from successive
// readings of the page (screenshots.ts reads them every 500 ms). What Grafana 11.6 keeps on the page,
// read in @grafana/ui 11.6.0's dist/esm (npm pack @grafana/ui@11.6.0):
// - PanelChrome.mjs:165 renders the panel's LoadingBar (aria-label "Panel loading bar") only while its
//   state is Loading, and :134-138 a cancel button (data-testid "panel-cancel-query") after 2 s of it;
// - PanelChrome.mjs:133 renders data-testid "panel-streaming" for as long as a panel streams: that panel
//   has its data and never stops "loading", so streaming is not loading here;
// - the dashboards refresh every 5 s (dashboards/json "refresh": "5s"): each panel goes back to Loading
//   at every refresh, so a panel that has once been calm stays settled while it reloads;
// - LoadingIndicator.mjs (data-testid "Loading indicator") and Spinner.mjs (data-testid "Spinner") are
//   not part of a 11.6 panel: outside the panels they belong to the page's chrome (the refresh picker,
//   a variable loading its values) and may stay. They are waited on for a bounded grace, then named in
//   the result instead of failing it.

export interface PanelReading {
  title: string;
  /** A loading bar or a cancel-query button inside the panel. */
  loading: boolean;
  /** The panel streams (Grafana's live indicator): its data is there. */
  streaming?: boolean;
  error: boolean;
  noData: boolean;
}

export interface PageReading {
  panels: PanelReading[];
  /** Loading indicators outside any panel, by the selector that found them. */
  pageIndicators: string[];
}

export interface SettleRule {
  /** Readings in a row a panel must be calm in before it counts as loaded (one reading per 500 ms). */
  calmReadings: number;
  /** How long page-level indicators are waited on once every panel has loaded. */
  pageGraceMs: number;
}

export const SETTLE_RULE: SettleRule = { calmReadings: 2, pageGraceMs: 10_000 };

export type Verdict =
  { state: 'waiting' } | { state: 'settled'; panels: PanelReading[]; lingering: string[] };

/** Follows one dashboard's readings; `verdict` after each, `failure` when time is up. */
export class SettleTracker {
  /** Each panel's last calm reading once it has been calm `calmReadings` times in a row. */
  private readonly loaded = new Map<string, PanelReading>();
  private readonly calmRuns = new Map<string, number>();
  private allLoadedAt: number | undefined;
  private last: PageReading = { panels: [], pageIndicators: [] };

  constructor(
    private readonly expected: string[],
    private readonly rule: SettleRule = SETTLE_RULE,
  ) {}

  read(reading: PageReading, now: number): Verdict {
    this.last = reading;
    for (const panel of reading.panels) {
      const calm = !panel.loading;
      const run = calm ? (this.calmRuns.get(panel.title) ?? 0) + 1 : 0;
      this.calmRuns.set(panel.title, run);
      if (calm && run >= this.rule.calmReadings) this.loaded.set(panel.title, panel);
    }
    if (!this.expected.every((t) => this.loaded.has(t))) return { state: 'waiting' };
    this.allLoadedAt ??= now;
    const pageBusy = reading.pageIndicators.length > 0;
    if (pageBusy && now - this.allLoadedAt < this.rule.pageGraceMs) return { state: 'waiting' };
    // Judge each panel by its latest calm reading: a refresh in flight shows the loading bar over the
    // same data, and the reading before it is what the panel shows.
    const panels = reading.panels.map((p) => (p.loading ? (this.loaded.get(p.title) ?? p) : p));
    return { state: 'settled', panels, lingering: [...new Set(reading.pageIndicators)] };
  }

  /** One line saying what was still missing or loading when the wait ran out. */
  failure(timeoutMs: number): string {
    const present = new Set(this.last.panels.map((p) => p.title));
    const missing = this.expected.filter((t) => !present.has(t));
    const neverLoaded = this.expected.filter((t) => present.has(t) && !this.loaded.has(t));
    const parts = [
      `missing [${missing.join(', ')}]`,
      `never calm for ${this.rule.calmReadings} readings in a row [${neverLoaded.join(', ')}]`,
    ];
    if (this.last.pageIndicators.length)
      parts.push(
        `loading indicators outside the panels [${[...new Set(this.last.pageIndicators)].join(', ')}]`,
      );
    return `not settled after ${timeoutMs / 1000} s: ${parts.join('; ')}`;
  }
}
