// Dashboards as a person sees them: each one opened in Chromium in kiosk mode for the run's window,
// waited on until every panel has loaded, then failed for a panel that shows an error, or "No data"
// where the run recorded what it reads, and saved as one PNG. What to look for is named by Grafana's
// own e2e selectors (grafana-selectors.ts). Chromium is the one the project drives (k6/browser's
// K6_BROWSER_EXECUTABLE_PATH and K6_BROWSER_ARGS apply).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { launchFailure, launchOptions } from '@loadlab/k6-format/browser-launch';
import type { CheckResult } from './checks.js';
import {
  bySelector,
  dashboardPath,
  loadingIndicator,
  panelCancelQuery,
  panelDataErrorMessage,
  panelLoadingBar,
  panelPrefix,
  panelStatusError,
  panelStreaming,
  spinner,
} from './grafana-selectors.js';
import type { Window } from './panel-requests.js';
import { SettleTracker, type PageReading, type PanelReading } from './settle.js';

export interface DashboardToShoot {
  uid: string;
  /** Titles of the panels that are not rows, as dashboards/ builds them. */
  panels: string[];
  /** Panels none of whose queries can have data for this run: "No data" is right there. */
  empty: Set<string>;
  /** The grid's height in Grafana's rows (the lowest panel's gridPos y + h). */
  gridRows?: number;
}

/**
 * A viewport tall enough for the whole grid: Grafana lazy-loads panels below the fold, and those would
 * never run their queries. A grid row is 30 px plus an 8 px gap (Grafana's GRID_CELL_HEIGHT, GRID_CELL_VMARGIN).
 */
export function viewportHeight(gridRows = 100): number {
  return Math.max(1200, gridRows * 38 + 400);
}

/** The lowest panel's bottom edge, rows' nested panels included. */
export function gridRows(dashboard: { panels?: unknown[] }): number {
  type Grid = { gridPos?: { y?: number; h?: number }; panels?: Grid[] };
  const bottom = (panels: Grid[] = []): number =>
    Math.max(0, ...panels.map((p) => Math.max((p.gridPos?.y ?? 0) + (p.gridPos?.h ?? 0), bottom(p.panels))));
  return bottom(dashboard.panels as Grid[] | undefined);
}

export interface ScreenshotOptions {
  grafanaUrl: string;
  authorization: string;
  testid: string;
  window: Window;
  dashboards: DashboardToShoot[];
  dir: string;
  env: Record<string, string | undefined>;
  timeoutMs?: number;
}

/** The kiosk URL of a dashboard for one run: its window, its testid, "All" for the multi-value variables. */
export function kioskUrl(grafanaUrl: string, uid: string, testid: string, window: Window): string {
  const query = new URLSearchParams({
    orgId: '1',
    from: String(window.fromMs),
    to: String(window.toMs),
    'var-testid': testid,
    'var-scenario': '$__all',
    'var-job': '$__all',
  });
  return `${grafanaUrl.replace(/\/$/, '')}${dashboardPath(uid)}?${query}&kiosk`;
}

/**
 * Runs in the page (a string: this project compiles without the DOM's types). Every panel section,
 * read with Grafana's selectors; a stat shows its own "No data" as its value, hence the text test.
 * Loading indicators outside every panel are named apart: settle.ts gives those a bounded grace.
 */
const READ_PANELS = `({ prefix, error, message, loading, streaming, indicators }) => {
  const sections = [...document.querySelectorAll('[data-testid^=' + JSON.stringify(prefix) + ']')];
  const panels = sections.map((section) => {
    const text = section.innerText || '';
    const note = section.querySelector(message);
    return {
      title: (section.getAttribute('data-testid') || '').slice(prefix.length),
      loading: section.querySelector(loading) !== null,
      streaming: section.querySelector(streaming) !== null,
      error: section.querySelector(error) !== null,
      noData: /\\bNo data\\b/.test(note ? note.textContent : '') || /(^|\\n)\\s*No data\\s*(\\n|$)/.test(text),
    };
  });
  const pageIndicators = [];
  for (const [name, selector] of indicators)
    for (const element of document.querySelectorAll(selector))
      if (!sections.some((section) => section.contains(element))) pageIndicators.push(name);
  return { panels, pageIndicators };
}`;

async function readPage(page: Page): Promise<PageReading> {
  const args = {
    prefix: panelPrefix,
    error: bySelector(panelStatusError),
    message: bySelector(panelDataErrorMessage),
    loading: [panelLoadingBar, panelCancelQuery, loadingIndicator].map(bySelector).join(', '),
    streaming: bySelector(panelStreaming),
    indicators: [loadingIndicator, spinner].map((name) => [name, bySelector(name)]),
  };
  return page.evaluate(`(${READ_PANELS})(${JSON.stringify(args)})`) as Promise<PageReading>;
}

/** Reads the page every 500 ms until settle.ts's rule says it has settled, or fails after timeoutMs. */
async function settled(
  page: Page,
  expected: string[],
  timeoutMs: number,
): Promise<{ panels: PanelReading[]; lingering: string[] }> {
  const deadline = Date.now() + timeoutMs;
  const tracker = new SettleTracker(expected);
  while (Date.now() < deadline) {
    const verdict = tracker.read(await readPage(page), Date.now());
    if (verdict.state === 'settled') return verdict;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(tracker.failure(timeoutMs));
}

export function panelProblems(panels: PanelReading[], empty: Set<string>): string[] {
  return panels.flatMap((p) => [
    ...(p.error ? [`${p.title}: shows an error`] : []),
    ...(p.noData && !empty.has(p.title) ? [`${p.title}: No data`] : []),
  ]);
}

export async function takeScreenshots(options: ScreenshotOptions): Promise<CheckResult[]> {
  const launch = { ...launchOptions(options.env), headless: true };
  let browser;
  try {
    browser = await chromium.launch(launch);
  } catch (error) {
    return [
      { name: 'screenshots', ok: false, detail: launchFailure(launch.executablePath!, error as Error) },
    ];
  }
  mkdirSync(options.dir, { recursive: true });
  const results: CheckResult[] = [];
  try {
    const context = await browser.newContext({
      viewport: { width: 1600, height: viewportHeight() },
      extraHTTPHeaders: { Authorization: options.authorization },
    });
    for (const dashboard of options.dashboards) {
      const name = `screenshot ${dashboard.uid}`;
      const page = await context.newPage();
      try {
        await page.setViewportSize({ width: 1600, height: viewportHeight(dashboard.gridRows) });
        await page.goto(kioskUrl(options.grafanaUrl, dashboard.uid, options.testid, options.window), {
          waitUntil: 'load',
          timeout: 60_000,
        });
        const { panels, lingering } = await settled(page, dashboard.panels, options.timeoutMs ?? 90_000);
        const file = join(options.dir, `${dashboard.uid}.png`);
        await page.screenshot({ path: file, fullPage: true });
        const problems = panelProblems(panels, dashboard.empty);
        const emptyShown = panels.filter((p) => p.noData && dashboard.empty.has(p.title)).length;
        const streaming = panels.filter((p) => p.streaming).length;
        const notes = [
          ...(streaming ? [`${streaming} streaming`] : []),
          ...(lingering.length
            ? [`loading indicators outside the panels stayed: ${lingering.join(', ')}`]
            : []),
        ];
        results.push({
          name,
          ok: problems.length === 0,
          file,
          detail: problems.length
            ? `${problems.join('; ')} (${file})`
            : `${file}: ${panels.length} panels loaded, ${emptyShown} empty as expected${notes.map((n) => `; ${n}`).join('')}`,
        });
      } catch (error) {
        results.push({ name, ok: false, detail: (error as Error).message.split('\n')[0] ?? '' });
      } finally {
        await page.close();
      }
    }
  } finally {
    await browser.close();
  }
  return results;
}
