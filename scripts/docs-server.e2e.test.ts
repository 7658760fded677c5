import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOCS, exportSlidesPdf, renderDoc, renderSlides, startDocsServer } from './docs-server.js';

describe('slides and docs', function () {
  this.timeout(60_000);

  it('renders one section per slide, offline', () => {
    const html = renderSlides('# One\n\ntext\n\n---\n\n## Two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n');
    assert.equal(html.match(/<section class="slide/g)?.length, 2);
    assert.match(html, /<table>/);
    assert.doesNotMatch(html, /(src|href)="https?:\/\/(?!127\.0\.0\.1)/);
  });

  it('serves the deck and the docs hub, with links between READMEs kept inside the hub', async () => {
    const slides = await startDocsServer('slides', 0);
    const docs = await startDocsServer('docs', 0);
    try {
      const base = (s: typeof slides) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
      assert.match(await (await fetch(`${base(slides)}/`)).text(), /class="slide current"/);
      const index = await (await fetch(`${base(docs)}/`)).text();
      for (const d of DOCS) assert.match(index, new RegExp(`/doc/${d.replace(/\./g, '\\.')}`));
      const readme = await (await fetch(`${base(docs)}/doc/README.md`)).text();
      assert.match(readme, /href="\/doc\/k6\/README\.md"/);
      assert.equal(
        (await fetch(`${base(docs)}/doc/package.json`)).status,
        404,
        'only the listed READMEs are served',
      );
      assert.equal(renderDoc('../etc/passwd'), undefined);
    } finally {
      slides.close();
      docs.close();
    }
  });

  it('exports the slides to PDF with Chromium', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'loadlab-slides-')), 'slides.pdf');
    await exportSlidesPdf(out);
    assert.equal(readFileSync(out).subarray(0, 5).toString(), '%PDF-');
  });
});
