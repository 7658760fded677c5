// results/report/index.html and the live dashboard page: one self-contained file with uPlot, its CSS,
// our CSS and the client script inlined, and the report model embedded as JSON. Works offline, no CDN.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Report } from '../model.js';
import { clientScript } from '../ui/client-bundle.js';

const here = dirname(fileURLToPath(import.meta.url));
let assets: { uplotJs: string; uplotCss: string; css: string; client: string } | undefined;

/** Reads the inlined assets once per process; uPlot comes from node_modules, never from a CDN. */
function loadAssets(): NonNullable<typeof assets> {
  if (!assets) {
    const uplotDir = dirname(createRequire(import.meta.url).resolve('uplot'));
    assets = {
      uplotJs: readFileSync(join(uplotDir, 'uPlot.iife.min.js'), 'utf8'),
      uplotCss: readFileSync(join(uplotDir, 'uPlot.min.css'), 'utf8'),
      css: readFileSync(join(here, '..', 'ui', 'style.css'), 'utf8'),
      client: clientScript(),
    };
  }
  return assets;
}

/** JSON safe inside <script>: `<` escaped so no value (a tag, an error message) can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
// Inlined scripts must not contain a closing script tag; uPlot and our client do not, but be certain.
const inlineScript = (code: string) => code.replace(/<\/script/gi, '<\\/script');

export interface HtmlOptions {
  live?: boolean;
  eventsPath?: string;
}

export function renderHtml(report: Report | undefined, opts: HtmlOptions = {}): string {
  const a = loadAssets();
  const verdict = report ? (report.passed ? 'PASS' : 'FAIL') : 'live';
  const title = `${report?.title ?? 'Load test'} — ${verdict}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${a.uplotCss}</style>
<style>${a.css}</style>
</head>
<body>
<main id="app"><h1>${escapeHtml(title)}</h1></main>
<noscript><p>This report draws its tables and charts with JavaScript; REPORT.md next to it has the same tables.</p></noscript>
<script type="application/json" id="report-config">${scriptJson({ live: !!opts.live, eventsPath: opts.eventsPath ?? 'events' })}</script>
<script type="application/json" id="report-data">${scriptJson(report ?? null)}</script>
<script>${inlineScript(a.uplotJs)}</script>
<script>${inlineScript(a.client)}</script>
</body>
</html>
`;
}
