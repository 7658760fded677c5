// The screenshots' "settled" rule against readings of what Grafana 11.6 keeps on a dashboard's page
// (settle.ts names the @grafana/ui 11.6.0 sources): panels that reload at every 5 s refresh, a streaming
// panel, loading indicators of the page's chrome that never go, and a panel that never loads.
import assert from 'node:assert/strict';
import { SettleTracker, type PanelReading } from './settle.js';

const panel = (title: string, state: Partial<PanelReading> = {}): PanelReading => ({
  title,
  loading: false,
  error: false,
  noData: false,
  ...state,
});

describe('stack:verify --screenshots: when a dashboard has settled', () => {
  it('waits for every expected panel to be calm twice in a row', () => {
    const tracker = new SettleTracker(['A', 'B']);
    assert.equal(tracker.read({ panels: [panel('A')], pageIndicators: [] }, 0).state, 'waiting');
    assert.equal(
      tracker.read({ panels: [panel('A'), panel('B')], pageIndicators: [] }, 500).state,
      'waiting',
    );
    const verdict = tracker.read({ panels: [panel('A'), panel('B')], pageIndicators: [] }, 1000);
    assert.deepEqual(verdict, { state: 'settled', panels: [panel('A'), panel('B')], lingering: [] });
  });

  it('a panel reloading at the dashboard refresh stays loaded, judged by its last calm reading', () => {
    // refresh "5s": every panel shows its loading bar again at each refresh, never all calm at once here.
    const tracker = new SettleTracker(['A', 'B']);
    tracker.read({ panels: [panel('A'), panel('B', { loading: true })], pageIndicators: [] }, 0);
    tracker.read(
      { panels: [panel('A', { noData: true }), panel('B', { loading: true })], pageIndicators: [] },
      500,
    );
    tracker.read({ panels: [panel('A', { loading: true }), panel('B')], pageIndicators: [] }, 1000);
    const verdict = tracker.read(
      { panels: [panel('A', { loading: true }), panel('B')], pageIndicators: [] },
      1500,
    );
    assert.equal(verdict.state, 'settled');
    assert.deepEqual(verdict.state === 'settled' && verdict.panels, [
      panel('A', { noData: true }),
      panel('B'),
    ]);
  });

  it('a streaming panel (its live indicator stays) is not loading', () => {
    const tracker = new SettleTracker(['live']);
    const live = panel('live', { streaming: true });
    tracker.read({ panels: [live], pageIndicators: [] }, 0);
    assert.equal(tracker.read({ panels: [live], pageIndicators: [] }, 500).state, 'settled');
  });

  it('loading indicators outside the panels get a bounded grace, then are named, not waited on for ever', () => {
    const tracker = new SettleTracker(['A'], { calmReadings: 2, pageGraceMs: 3000 });
    const busy = {
      panels: [panel('A')],
      pageIndicators: ['data-testid Loading indicator', 'Spinner', 'Spinner'],
    };
    tracker.read(busy, 0);
    assert.equal(tracker.read(busy, 500).state, 'waiting', 'all panels loaded at 500 ms: the grace starts');
    assert.equal(tracker.read(busy, 3000).state, 'waiting');
    assert.deepEqual(tracker.read(busy, 3500), {
      state: 'settled',
      panels: [panel('A')],
      lingering: ['data-testid Loading indicator', 'Spinner'],
    });
    // One that goes within the grace is not named.
    const other = new SettleTracker(['A'], { calmReadings: 2, pageGraceMs: 3000 });
    other.read(busy, 0);
    other.read(busy, 500);
    assert.deepEqual(other.read({ panels: [panel('A')], pageIndicators: [] }, 1000), {
      state: 'settled',
      panels: [panel('A')],
      lingering: [],
    });
  });

  it('says which panels were missing or never calm, and what loaded outside them, when time is up', () => {
    const tracker = new SettleTracker(['A', 'B', 'C']);
    for (let t = 0; t < 5000; t += 500)
      tracker.read(
        {
          panels: [panel('A'), panel('B', { loading: true })],
          pageIndicators: ['data-testid Loading indicator'],
        },
        t,
      );
    assert.equal(
      tracker.failure(90_000),
      'not settled after 90 s: missing [C]; never calm for 2 readings in a row [B]; ' +
        'loading indicators outside the panels [data-testid Loading indicator]',
    );
  });
});
