// The text summary layouts (compact, full with GROUP/SCENARIO sections, legacy) and the per-group and
// per-scenario aggregation behind `full`, checked against k6's rules and its real outputs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Sample } from '../contracts.js';
import { K6_GOLDEN } from '../../devkit/k6-reference.js';
import { MetricsEngine, parseThresholds, type SummaryData } from '../metrics/index.js';
import { renderTextSummary } from './text-summary.js';
import { SectionAggregator } from '../metrics/sections.js';
import { decodeCatV, firstDifference, layoutOf, summaryPart } from '../metrics/test-support.js';

const sample = (
  metric: string,
  type: Sample['type'],
  value: number,
  tags: Record<string, string>,
  contains: Sample['contains'] = 'default',
): Sample => ({ metric, type, contains, value, tags, time: 0 });

/** The handleSummary data real k6 v1.3 produced for s1.js (k6-golden/hs_data.json). */
const k6Data = JSON.parse(readFileSync(`${K6_GOLDEN}/hs_data.json`, 'utf8')) as SummaryData;
/** s1.js runs its checks in this order: the Login page group's, Submit's, then the root's. */
const loginPage = k6Data.root_group.groups[0]!;
const s1Checks = [...loginPage.checks, ...loginPage.groups[0]!.checks, ...k6Data.root_group.checks];
const golden = (name: string) => readFileSync(`${K6_GOLDEN}/${name}`, 'utf8');

function assertSameLayout(ours: string, reference: string): void {
  assert.equal(firstDifference(layoutOf(ours), layoutOf(reference)), undefined);
}

describe('runner text summary', () => {
  describe('per-group and per-scenario aggregation', () => {
    it("routes samples as k6's summary output does", () => {
      const agg = new SectionAggregator();
      const add = (value: number, tags: Record<string, string>) =>
        agg.add(sample('http_reqs', 'counter', value, tags));
      add(1, { scenario: 'default' }); // no group, default scenario: no section
      add(2, { scenario: 'default', group: '::a::b' }); // only ::a::b; ::a created empty, first
      add(4, { group: '::a' }); // no scenario tag counts as default
      add(8, { group: '::setup' }); // setup and teardown count for no group
      add(16, { scenario: 'sc', group: '::teardown' }); // ...but still for their scenario
      add(32, { scenario: 'sc', group: '::a' }); // the scenario and its own ::a, not the default one
      add(64, { scenario: 'sc' });
      const sections = agg.sections(2000, ['avg']);
      const count = (s: { metrics: Record<string, { values: Record<string, number> }> }) =>
        s.metrics.http_reqs?.values.count;
      const [a] = sections.groups;
      assert.deepEqual(
        sections.groups.map(([n]) => n),
        ['a'],
      );
      assert.equal(count(a![1]), 4);
      assert.deepEqual(
        a![1].groups.map(([n, s]) => [n, count(s)]),
        [['b', 2]],
      );
      const [sc] = sections.scenarios;
      assert.equal(sc![0], 'sc');
      assert.equal(count(sc![1]), 16 + 32 + 64);
      assert.equal(sc![1].metrics.http_reqs!.values.rate, (16 + 32 + 64) / 2, 'a rate over the whole test');
      assert.deepEqual(
        sc![1].groups.map(([n, s]) => [n, count(s)]),
        [['a', 32]],
      );
    });

    it("counts a section's checks by name (not path), in first-seen order", () => {
      const agg = new SectionAggregator();
      const check = (name: string, ok: boolean, group: string) =>
        agg.add(sample('checks', 'rate', ok ? 1 : 0, { scenario: 'sc', group, check: name }));
      check('second', true, '::g');
      check('first', false, '');
      check('second', false, '::h');
      const section = agg.sections(4000, []).scenarios[0]![1];
      assert.deepEqual(section.checks, {
        passes: 1,
        fails: 2,
        ordered: [
          { name: 'second', passes: 1, fails: 1 },
          { name: 'first', passes: 0, fails: 1 },
        ],
      });
      assert.deepEqual(section.metrics.checks!.values, { rate: 1 / 3, passes: 1, fails: 2 });
    });

    it('is off unless the engine is told the summary needs sections', () => {
      const engine = new MetricsEngine({ thresholds: [] });
      engine.add([sample('http_reqs', 'counter', 1, { scenario: 'sc', group: '::g' })]);
      assert.deepEqual(engine.summarySections(1000), { groups: [], scenarios: [] });
    });
  });

  describe('full mode sections', () => {
    function fullText(samples: Sample[]): string {
      const engine = new MetricsEngine({ thresholds: parseThresholds({}), sectionAggregates: true });
      engine.add(samples);
      const data = engine.summaryData({ testRunDurationMs: 2000, isStdOutTTY: false, isStdErrTTY: false });
      return renderTextSummary(data, {
        mode: 'full',
        color: false,
        orderedChecks: engine.tree.orderedChecks(),
        sections: engine.summarySections(2000),
      });
    }

    it('orders groups as a JS object would, sorts scenarios, nests groups one level deeper', () => {
      const text = fullText([
        sample('http_reqs', 'counter', 1, { scenario: 'default', group: '::b' }),
        sample('http_reqs', 'counter', 1, { scenario: 'default', group: '::10' }),
        sample('http_reqs', 'counter', 1, { group: '::2' }),
        sample('iterations', 'counter', 1, { scenario: 'beta', group: '' }),
        sample('checks', 'rate', 0, { scenario: 'alpha', group: '::outer::inner', check: 'deep' }),
        sample('checks', 'rate', 1, { scenario: 'alpha', group: '::outer::inner', check: 'deep' }),
        sample('group_duration', 'trend', 5, { scenario: 'alpha', group: '::outer' }, 'time'),
        sample('http_req_duration', 'trend', 4, { scenario: 'alpha', group: '::outer' }, 'time'),
        sample('http_reqs', 'counter', 1, { group: '::setup' }),
      ]);
      const trend = 'avg=4ms min=4ms med=4ms max=4ms p(90)=4ms p(95)=4ms';
      const group = (name: string) => [
        '  █ GROUP: ' + name + ' ',
        '',
        '    HTTP',
        '    http_reqs...: 1 0.5/s',
        '',
        '',
      ];
      const checks = (indent: string, detail: string) => [
        `${indent}checks_total.......: 2      1/s`,
        `${indent}checks_succeeded...: 50.00% 1 out of 2`,
        `${indent}checks_failed......: 50.00% 1 out of 2`,
        '',
        `${indent}✗ deep`,
        `${detail}↳  50% — ✓ 1 / ✗ 1`,
        '',
      ];
      const expected = [
        // Integer-like names first, ascending; then first-seen order.
        ...group('2'),
        ...group('10'),
        ...group('b'),
        // alpha before beta although beta was seen first.
        '  █ SCENARIO: alpha ',
        '',
        ...checks('    ', '      '),
        '    HTTP',
        `    http_req_duration...: ${trend}`,
        '',
        '    ↳ GROUP: outer ',
        '',
        '      HTTP',
        `      http_req_duration...: ${trend}`,
        '',
        '      ↳ GROUP: inner ',
        '',
        // summary.js indents a failed check's detail by (2 * level + 1) * 2: 14 spaces here.
        ...checks('        ', ' '.repeat(14)),
        '',
        '  █ SCENARIO: beta ',
        '',
        '    EXECUTION',
        '    iterations...: 1 0.5/s',
        '',
        '',
      ];
      assert.deepEqual(text.slice(text.indexOf('  █ GROUP: 2')).split('\n'), expected);
      assert.match(text, /\n {4}http_reqs\.+: 4 2\/s\n/, 'TOTAL RESULTS counts setup samples');
    });

    it('prints no dots when the whole report holds a single metric (summary.js reduce quirk)', () => {
      const text = fullText([sample('iterations', 'counter', 3, { scenario: 'default' })]);
      assert.match(text, /\n {4}iterations: 3 1\.5\/s\n/);
      const two = fullText([
        sample('iterations', 'counter', 3, { scenario: 'sc' }),
        sample('vus', 'gauge', 1, {}),
      ]);
      assert.match(two, /\n {4}iterations\.{3}: 3 1\.5\/s\n/);
    });

    it("a checks threshold with no check made: the check totals at zero, as k6's (its metric exists)", () => {
      const engine = new MetricsEngine({ thresholds: parseThresholds({ checks: ['rate>0.9'] }) });
      engine.add([sample('iterations', 'counter', 1, { scenario: 'default' })]);
      const data = engine.summaryData({ testRunDurationMs: 2000, isStdOutTTY: false, isStdErrTTY: false });
      const text = renderTextSummary(data, { mode: 'compact', color: false });
      assert.match(
        text,
        /\n {4}checks_total\.+: 0 +0\/s\n {4}checks_succeeded\.+: 0\.00% 0 out of 0\n {4}checks_failed\.+: 0\.00% 0 out of 0\n/,
        text,
      );
      const none = new MetricsEngine({ thresholds: parseThresholds({}) });
      none.add([sample('iterations', 'counter', 1, { scenario: 'default' })]);
      const without = renderTextSummary(
        none.summaryData({ testRunDurationMs: 2000, isStdOutTTY: false, isStdErrTTY: false }),
        { mode: 'compact', color: false },
      );
      assert.doesNotMatch(without, /checks_total/);
    });

    it('lists a check name once in TOTAL RESULTS even when two groups use it', () => {
      const text = fullText([
        sample('checks', 'rate', 1, { group: '::a', check: 'status 200' }),
        sample('checks', 'rate', 0, { group: '::b', check: 'status 200' }),
      ]);
      const total = text.slice(0, text.indexOf('█ GROUP'));
      assert.equal(total.match(/status 200/g)?.length, 1, total);
      assert.match(total, /✗ status 200\n {6}↳ {2}50% — ✓ 1 \/ ✗ 1/);
    });
  });

  describe("layouts of real k6 data (hs_data.json) against k6's own text", () => {
    it('compact: THRESHOLDS and TOTAL RESULTS as out_compact.txt', () => {
      assertSameLayout(
        renderTextSummary(k6Data, { mode: 'compact', color: false, orderedChecks: s1Checks }),
        summaryPart(golden('out_compact.txt')),
      );
    });

    it('full without sections: every http timing trend, as the top of out_full.txt', () => {
      const full = golden('out_full.txt');
      assertSameLayout(
        renderTextSummary(k6Data, { mode: 'full', color: false, orderedChecks: s1Checks }),
        full.slice(0, full.indexOf('  █ SCENARIO')),
      );
    });

    it('legacy: the check tree and every metric with threshold marks, as out_legacy.txt', () => {
      const text = renderTextSummary(k6Data, { mode: 'legacy', color: false });
      assertSameLayout(text, golden('out_legacy.txt'));
      // k6 prints '\n' + textSummary + '\n\n', and the legacy textSummary starts with the checks.
      assert.ok(golden('out_legacy.txt').startsWith('\n     ✓ is 404\n'));
      assert.ok(text.startsWith('     ✓ is 404\n') && !text.endsWith('\n'), text);
    });

    it('colors: whole check lines colored, padding after the color codes (out_color_compact_tty)', () => {
      const ESC = '\u001b';
      // A value masked; padding inside its color codes (k6 puts none there) stays visible.
      const value = new RegExp(`${ESC}\\[(36|2;36)m[^${ESC}]*?( *)${ESC}\\[0m`, 'g');
      const lineEnd = new RegExp(`${ESC}\\[0K\r?$`);
      const masked = (line: string) =>
        line
          .replace(lineEnd, '')
          .replace(
            value,
            (_m, code: string, inside: string) => `${ESC}[${code}mN${inside ? ' ' : ''}${ESC}[0m`,
          )
          .replace(/(\S) +/g, '$1 ')
          // Trailing padding after a value depends on the values; a title's trailing space does not.
          .replace(new RegExp(`(mN${ESC}\\[0m) $`), '$1');
      const lines = (text: string) => {
        const all = text.split('\n').map(masked);
        while (all[0] === '') all.shift();
        while (all.at(-1) === '') all.pop();
        return all;
      };
      // The capture ends with k6's stderr line about the crossed thresholds.
      const capture = decodeCatV(golden('out_color_compact_tty.catv.txt'));
      const reference = capture.slice(0, capture.lastIndexOf(`${ESC}[31mERRO`));
      const ours = lines(
        renderTextSummary(k6Data, { mode: 'compact', color: true, orderedChecks: s1Checks }),
      );
      assert.equal(firstDifference(ours, lines(summaryPart(reference))), undefined);
      assert.equal(ours[0], `  █ ${ESC}[1mTHRESHOLDS${ESC}[0m `);
      assert.ok(ours.includes(`    ${ESC}[32m✓ login page 200${ESC}[0m`));
    });
  });
});
