// `npm run slides` (3337), `slides:open`, `docs:open` (3338) and `slides:pdf`: the lab's slides and
// documentation, rendered from Markdown in the repository, offline (no CDN), printable.
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { marked } from 'marked';
import { chromium } from 'playwright-core';
import { openInBrowser } from '../report/open.js';
import { launchOptions } from '@loadlab/k6-format/browser-launch';
import { isEntryPoint } from '@loadlab/services/start-and-stop';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SLIDES = join(ROOT, 'docs/slides.md');
/** The documentation hub: every README of the project, in reading order. */
export const DOCS = [
  'README.md',
  'k6/README.md',
  'report/README.md',
  'stack/README.md',
  'dashboards/README.md',
  'runner/vu/README.md',
  'runner/modules/browser/README.md',
];

const STYLE = `
body{margin:0;font:18px/1.5 system-ui,sans-serif;color:#1d2433;background:#f5f7fb}
main{max-width:960px;margin:0 auto;padding:2rem}
table{border-collapse:collapse}td,th{border:1px solid #dde2ec;padding:.3rem .6rem}
pre{background:#fff;border:1px solid #dde2ec;padding:.8rem;overflow:auto}code{font-size:.9em}
.slide{display:none;min-height:80vh;padding:3rem 4rem;background:#fff;border-radius:12px;margin:2rem}
.slide.current{display:block}.hint{color:#5b6478;text-align:center}
@media print{.slide{display:block;page-break-after:always;min-height:auto;margin:0}.hint{display:none}body{background:#fff}}
`;

function page(title: string, body: string, script = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><style>${STYLE}</style></head><body>${body}${script ? `<script>${script}</script>` : ''}</body></html>`;
}

export function renderSlides(markdown: string): string {
  const slides = markdown
    .split(/\n---\n/)
    .map(
      (s, i) => `<section class="slide${i === 0 ? ' current' : ''}">${marked.parse(s) as string}</section>`,
    );
  const nav = `const s=[...document.querySelectorAll('.slide')];let i=0;const show=(n)=>{i=Math.max(0,Math.min(s.length-1,n));s.forEach((x,k)=>x.classList.toggle('current',k===i))};
addEventListener('keydown',(e)=>{if(['ArrowRight',' ','PageDown'].includes(e.key))show(i+1);if(['ArrowLeft','PageUp'].includes(e.key))show(i-1)});addEventListener('click',()=>show(i+1));`;
  return page(
    'loadlab slides',
    `${slides.join('')}<p class="hint">${slides.length} slides: arrow keys or click</p>`,
    nav,
  );
}

export function renderDoc(path: string): string | undefined {
  if (!DOCS.includes(path) || !existsSync(join(ROOT, path))) return undefined;
  // Links between READMEs stay inside the hub.
  const html = (marked.parse(readFileSync(join(ROOT, path), 'utf8')) as string).replace(
    /href="([^":#]+\.md)"/g,
    (_m, target: string) => {
      const resolved = relative(ROOT, join(ROOT, dirname(path), target));
      return `href="/doc/${resolved}"`;
    },
  );
  return page(path, `<main><p><a href="/">docs</a> / ${path}</p>${html}</main>`);
}

function docsIndex(): string {
  const items = DOCS.filter((d) => existsSync(join(ROOT, d))).map(
    (d) => `<li><a href="/doc/${d}">${d}</a></li>`,
  );
  return page(
    'loadlab docs',
    `<main><h1>loadlab documentation</h1><ul>${items.join('')}</ul><p><a href="http://127.0.0.1:3337/">slides</a></p></main>`,
  );
}

export function startDocsServer(kind: 'slides' | 'docs', port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const html =
      kind === 'slides'
        ? path === '/'
          ? renderSlides(readFileSync(SLIDES, 'utf8'))
          : undefined
        : path === '/'
          ? docsIndex()
          : path.startsWith('/doc/')
            ? renderDoc(path.slice(5))
            : undefined;
    res.writeHead(html ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html ?? page('not found', '<main>Not found. <a href="/">Back</a></main>'));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

export async function exportSlidesPdf(out: string): Promise<void> {
  mkdirSync(dirname(out), { recursive: true });
  // k6/browser's recipe: K6_BROWSER_EXECUTABLE_PATH, K6_BROWSER_ARGS and the lab's flags.
  const browser = await chromium.launch({ ...launchOptions(process.env), headless: true });
  try {
    const pdfPage = await browser.newPage();
    await pdfPage.setContent(renderSlides(readFileSync(SLIDES, 'utf8')));
    await pdfPage.pdf({ path: out, format: 'A4', landscape: true, printBackground: true });
  } finally {
    await browser.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'pdf') {
    const out = rest[0] ?? 'results/slides.pdf';
    await exportSlidesPdf(out);
    console.log(`slides: wrote ${out}`);
    return;
  }
  if ((command !== 'slides' && command !== 'docs') || rest.some((arg) => arg !== '--open')) {
    console.error('usage: docs-server.ts slides|docs [--open] | pdf [FILE]');
    process.exit(2);
  }
  const port = command === 'slides' ? 3337 : 3338;
  let server: Server;
  try {
    server = await startDocsServer(command, port);
  } catch (error) {
    console.error(`${command}: cannot listen on 127.0.0.1:${port}: ${(error as Error).message}`);
    process.exit(2);
  }
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  console.log(`${command}: ${url} (Ctrl-C to stop)`);
  if (rest.includes('--open') && !(await openInBrowser(url)))
    console.log(`${command}: no desktop here; open ${url} yourself`);
  process.once('SIGINT', () => server.close(() => process.exit(0)));
}

if (isEntryPoint(import.meta.url)) void main(process.argv.slice(2));
