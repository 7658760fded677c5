// results/junit.xml: one test case per threshold and per check, one suite per scenario, so CI systems
// show exactly which SLO or assertion failed. A check with any failed execution is a failed test case.
import type { Report } from '../model.js';
import { observed } from './format.js';

const esc = (s: string) =>
  s
    .replace(
      /[&<>"']/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string,
    )
    // XML 1.0 forbids most control characters even when escaped.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

export function renderJunit(report: Report): string {
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  for (const s of report.scenarios) {
    const cases: string[] = [];
    let suiteFailures = 0;
    const time = (s.totals.durationMs / 1000).toFixed(3);
    for (const p of s.problems.filter((x) => !x.startsWith('threshold '))) {
      suiteFailures++;
      cases.push(
        `    <testcase classname="${esc(s.scenario)}.run" name="run completed"><failure message="${esc(p)}"/></testcase>`,
      );
    }
    for (const t of s.thresholds) {
      const name = `${t.metric}: ${t.source}`;
      const msg = `observed ${observed(t)} for ${t.source}`;
      if (!t.ok) suiteFailures++;
      cases.push(
        `    <testcase classname="${esc(s.scenario)}.thresholds" name="${esc(name)}">` +
          (t.ok
            ? `<system-out>${esc(msg)}</system-out>`
            : `<failure message="${esc(`crossed: ${msg}`)}" type="threshold"/>`) +
          '</testcase>',
      );
    }
    for (const c of s.checks) {
      const total = c.passes + c.fails;
      if (c.fails) suiteFailures++;
      cases.push(
        `    <testcase classname="${esc(`${s.scenario}.checks${c.group}`)}" name="${esc(c.name)}">` +
          (c.fails ? `<failure message="${esc(`${c.fails} of ${total} failed`)}" type="check"/>` : '') +
          '</testcase>',
      );
    }
    tests += cases.length;
    failures += suiteFailures;
    suites.push(
      `  <testsuite name="${esc(s.scenario)}" tests="${cases.length}" failures="${suiteFailures}" errors="0" time="${time}">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${esc(report.title)}" tests="${tests}" failures="${failures}">\n${suites.join('\n')}\n</testsuites>\n`;
}
