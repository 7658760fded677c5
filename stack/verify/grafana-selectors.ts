// What a dashboard shows, named by Grafana's own e2e selectors as @grafana/e2e-selectors 11.6.0 (the
// compose image's version) resolves them for Grafana 11.6; read from its dist/esm/selectors files
// (npm pack @grafana/e2e-selectors@11.6.0). Grafana puts a selector in `data-testid` where it starts
// with "data-testid", and in `aria-label` for the older ones, so both attributes are matched.

/** pages.mjs:159-161 Dashboard.url. */
export const dashboardPath = (uid: string) => `/d/${encodeURIComponent(uid)}`;

/** components.mjs:341-342 Panels.Panel.title: the panel's section, header included. */
export const panelPrefix = 'data-testid Panel header ';
export const panelTitle = (title: string) => `${panelPrefix}${title}`;

/** components.mjs:362-364 Panels.Panel.status (10.2.0 and later): "error" when a query failed. */
export const panelStatusError = 'data-testid Panel status error';

/** components.mjs:366-367 Panels.Panel.loadingBar: shown while the panel's queries run. */
export const panelLoadingBar = 'Panel loading bar';

/** components.mjs:378-379 Panels.Panel.PanelDataErrorMessage (10.4.0): "No data" and its kin. */
export const panelDataErrorMessage = 'data-testid Panel data error message';

/** components.mjs:1046-1049 LoadingIndicator.icon (10.4.0). */
export const loadingIndicator = 'data-testid Loading indicator';

// Plain data-testids of @grafana/ui 11.6.0 (dist/esm), not in @grafana/e2e-selectors:

/** PanelChrome.mjs:134-138: the panel's cancel-query button, shown after 2 s of loading. */
export const panelCancelQuery = 'panel-cancel-query';

/** PanelChrome.mjs:133: a streaming panel's live indicator, there for as long as it streams. */
export const panelStreaming = 'panel-streaming';

/** Spinner.mjs:34,59: the spinner of the page's chrome (a variable loading, a lazy component). */
export const spinner = 'Spinner';

/** A CSS selector matching a selector string in either attribute Grafana uses. */
export function bySelector(value: string): string {
  const quoted = JSON.stringify(value);
  return `[data-testid=${quoted}], [aria-label=${quoted}]`;
}
