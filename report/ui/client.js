/* global document, window, EventSource, uPlot */
// @ts-check: type-checked against report/model.ts (npm run typecheck, report/ui/tsconfig.json).
// Browser side of the HTML report and the live dashboard: builds the tables and the uPlot charts from
// the report model (report/model.ts) embedded in the page or pushed over server-sent events.
// Bundled by esbuild (ui/client-bundle.ts) into one script inlined in the self-contained page, with the
// number formatting of render/format.ts, so the HTML and the Markdown report write numbers alike.
import {
  delta as kindDelta,
  duration,
  ms,
  noData,
  noDataNote,
  num,
  observed,
  pct,
  value as kindValue,
} from '../render/format.ts';

/** @typedef {import('../model.ts').Report} Report */
/** @typedef {import('../model.ts').ScenarioReport} ScenarioReport */
/** @typedef {import('../model.ts').ScenarioComparison} ScenarioComparison */
/** @typedef {{ scenario: string, title: string, plot: import('uplot'), points: number }} DrawnChart */

(function () {
  'use strict';

  // renders: full renders (page rebuilt, charts recreated); updates: live snapshots applied in place.
  /** @type {{ charts: DrawnChart[], renders: number, updates: number, snapshots: number, finished: boolean }} */
  const state = { charts: [], renders: 0, updates: 0, snapshots: 0, finished: false };
  window.__loadlab = state;

  // ---- formatting: report/render/format.ts, the same functions the Markdown report uses ----
  // Legend cells are empty (null) while the cursor is off the chart.
  // Legend values: at the cursor, the value of that second; with no cursor (a static page, a printout)
  // uPlot would show '--' everywhere, so the series' peak is shown instead.
  const legendValue = (fmt) => (u, v, sidx, idx) => {
    if (idx === null || idx === undefined) {
      let max = null;
      for (const x of u.data[sidx] || [])
        if (x !== null && x !== undefined && (max === null || x > max)) max = x;
      return max === null ? 'no data' : 'max ' + fmt(max);
    }
    return v === null || v === undefined ? '--' : fmt(v);
  };
  const legendMs = legendValue((v) => ms(v));
  const legendCount = legendValue((v) => String(Math.round(v * 100) / 100));

  // Chart time axis: seconds since the first second of the run, as a load tester reads a test timeline.
  function elapsed(sec) {
    const s = Math.round(sec);
    if (s < 60) return s + 's';
    const m = Math.floor(s / 60);
    if (m < 60) return m + 'm' + (s % 60 ? String(s % 60).padStart(2, '0') + 's' : '');
    return Math.floor(m / 60) + 'h' + String(m % 60).padStart(2, '0') + 'm';
  }
  const clockUtc = (sec) => new Date(sec * 1000).toISOString().slice(11, 19) + ' UTC';

  // ---- DOM helpers: textContent only, so tag values from a run can never inject markup ----
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? '' : String(v));
    }
    // Children may nest arrays (a section returning several nodes): flatten them all.
    for (const c of [children].flat(Infinity)) {
      if (c === null || c === undefined) continue;
      node.append(typeof c === 'string' ? document.createTextNode(c) : c);
    }
    return node;
  }
  const badge = (ok) => el('span', { class: ok ? 'badge pass' : 'badge fail' }, ok ? 'PASS' : 'FAIL');

  function table(cls, head, rows, numericFrom) {
    if (rows.length === 0) return el('p', { class: 'empty ' + cls }, 'none');
    const start = numericFrom === undefined ? 1 : numericFrom;
    return el('table', { class: cls }, [
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          head.map((h, i) => el('th', { class: i >= start ? 'n' : undefined }, h)),
        ),
      ),
      el(
        'tbody',
        {},
        rows.map((r) =>
          el(
            'tr',
            { class: r.cls },
            r.cells.map((c, i) =>
              typeof c === 'object' && c !== null
                ? el('td', {}, c)
                : el('td', { class: i >= start ? 'n' : undefined }, String(c)),
            ),
          ),
        ),
      ),
    ]);
  }

  // ---- charts ----
  const COLORS = {
    vus: '#6c757d',
    rps: '#1f77b4',
    p50: '#2ca02c',
    p95: '#ff7f0e',
    p99: '#d62728',
    err: '#d62728',
    limit: '#9467bd',
  };

  function chartWidth(container) {
    return Math.max(320, Math.min(1100, (container.clientWidth || 900) - 8));
  }

  // The data of a scenario's charts, in the order drawCharts draws them: VUs, req/s, latency, errors.
  // VUs and req/s have charts of their own: on one plot with two scales they lay on top of each other
  // whenever the two numbers were alike (a smoke run: 2 VUs, about 2 req/s).
  /**
   * @param {NonNullable<ScenarioReport['series']>} series
   * @param {ScenarioReport['latencyLimits']} latencyLimits
   */
  function chartData(series, latencyLimits) {
    const limits = latencyLimits || [];
    return [
      [series.t, series.vus],
      [series.t, series.rps],
      [series.t, series.p50, series.p95, series.p99].concat(limits.map((l) => series.t.map(() => l.value))),
      [series.t, series.errors],
    ];
  }

  // Draws a scenario's charts into its container and returns their state.charts entries (none when there
  // is nothing to draw).
  /**
   * @param {HTMLElement} container
   * @param {ScenarioReport} s
   * @returns {DrawnChart[]}
   */
  function drawCharts(container, s) {
    const series = s.series;
    const drawn = [];
    if (!series || series.t.length === 0) {
      container.append(
        el('p', { class: 'empty' }, 'No time series for this run (no NDJSON given or no samples yet).'),
      );
      return drawn;
    }
    if (typeof uPlot === 'undefined') {
      container.append(el('p', { class: 'empty' }, 'Chart library missing.'));
      return drawn;
    }
    const [vusData, rpsData, latencyData, errorData] = chartData(series, s.latencyLimits);
    const width = chartWidth(container);
    const t0 = series.t[0];
    // Whole seconds only (the data has 1 s resolution); labels are elapsed time, the legend adds the clock.
    const xScale = { x: { time: false } };
    const xAxis = {
      incrs: [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200],
      space: 60,
      // Ticks counted from the run's first second (uPlot would align them to multiples of the epoch).
      splits: (u, axisIdx, min, max, incr) => {
        const out = [];
        for (let v = t0 + Math.ceil((min - t0) / incr) * incr; v <= max; v += incr) out.push(v);
        return out;
      },
      values: (u, vals) => vals.map((v) => elapsed(v - t0)),
    };
    // Same left and right gutters on every chart, so the three timelines line up second for second.
    const left = (label, extra) => Object.assign({ label, size: 64, labelSize: 24 }, extra);
    const blankRight = (scale) => ({
      scale,
      side: 1,
      size: 88,
      grid: { show: false },
      ticks: { show: false },
      values: (u, vals) => vals.map(() => ''),
    });
    const xSeries = {
      label: 'time',
      value: (u, v, sidx, idx) =>
        idx === null || idx === undefined
          ? 'whole run, ' + elapsed((u.data[0][u.data[0].length - 1] || t0) - t0)
          : v === null || v === undefined
            ? '--'
            : elapsed(v - t0) + ' (' + clockUtc(v) + ')',
    };
    container.append(
      el('p', { class: 'note chart-note' }, 'Run started ' + clockUtc(t0) + '; one point per second.'),
    );
    const mk = (title, opts, data) => {
      const box = el('div', { class: 'chart', 'data-chart': title });
      container.append(box);
      const u = new uPlot(
        Object.assign({ title, width, height: 220, legend: { live: true } }, opts),
        data,
        box,
      );
      const entry = { scenario: s.scenario, title, plot: u, points: data[0].length };
      state.charts.push(entry);
      drawn.push(entry);
    };
    const countScale = (name) =>
      Object.assign({}, xScale, { [name]: { range: (u, min, max) => [0, Math.max(1, max)] } });
    mk(
      'Virtual users',
      {
        scales: countScale('y'),
        series: [xSeries, { label: 'VUs', stroke: COLORS.vus, width: 2, spanGaps: true, value: legendCount }],
        axes: [xAxis, left('VUs'), blankRight('y')],
      },
      vusData,
    );
    mk(
      'Requests per second',
      {
        scales: countScale('y'),
        series: [
          xSeries,
          {
            label: 'req/s',
            stroke: COLORS.rps,
            width: 2,
            fill: 'rgba(31,119,180,0.08)',
            value: legendCount,
          },
        ],
        axes: [xAxis, left('req/s'), blankRight('y')],
      },
      rpsData,
    );
    const limits = s.latencyLimits || [];
    // Each threshold its own dash pattern, no point markers: they are limits, not measurements.
    const DASHES = [
      [8, 4],
      [2, 4],
      [12, 4, 2, 4],
    ];
    mk(
      'Latency (http_req_duration, log scale)',
      {
        scales: Object.assign({}, xScale, { y: { distr: 3 } }),
        series: [
          xSeries,
          { label: 'p50', stroke: COLORS.p50, width: 2, spanGaps: true, value: legendMs },
          { label: 'p95', stroke: COLORS.p95, width: 2, spanGaps: true, value: legendMs },
          { label: 'p99', stroke: COLORS.p99, width: 2, spanGaps: true, value: legendMs },
        ].concat(
          limits.map((l, i) => ({
            label: 'threshold ' + l.label,
            stroke: COLORS.limit,
            dash: DASHES[i % DASHES.length],
            width: 1.5,
            points: { show: false },
            value: legendMs,
          })),
        ),
        axes: [
          xAxis,
          left('latency', { splits: decades, values: (u, vals) => vals.map(decadeLabel) }),
          blankRight('y'),
        ],
      },
      latencyData,
    );
    mk(
      'Errors per second (http_req_failed)',
      {
        scales: Object.assign({}, xScale, { y: { range: (u, min, max) => [0, Math.max(1, max)] } }),
        series: [
          xSeries,
          {
            label: 'failed req/s',
            stroke: COLORS.err,
            width: 2,
            fill: 'rgba(214,39,40,0.12)',
            value: legendCount,
          },
        ],
        axes: [xAxis, left('failed req/s'), blankRight('y')],
      },
      errorData,
    );
    return drawn;
  }

  // A live snapshot of the same shape: the same uPlot instances take the new points (resized only when
  // their container's width changed, e.g. once a scrollbar appears).
  /**
   * @param {HTMLElement} container
   * @param {DrawnChart[]} drawn
   * @param {ScenarioReport} s
   */
  function updateCharts(container, drawn, s) {
    if (drawn.length === 0 || !s.series) return;
    const width = chartWidth(container);
    chartData(s.series, s.latencyLimits).forEach((data, i) => {
      const entry = drawn[i];
      if (entry.plot.width !== width) entry.plot.setSize({ width, height: entry.plot.height });
      entry.plot.setData(/** @type {import('uplot').AlignedData} */ (data));
      entry.points = data[0].length;
    });
  }

  // 0.1 ms, 1 ms, 10 ms, 100 ms, 1 s, 10 s: decade labels without trailing zeros.
  function decadeLabel(v) {
    if (v >= 1000) return +(v / 1000).toPrecision(3) + ' s';
    return +v.toPrecision(3) + ' ms';
  }

  // Log-scale ticks at powers of ten only: uPlot's default log ticks crowd the axis with labels.
  function decades(u, axisIdx, min, max) {
    const out = [];
    const lo = Math.floor(Math.log10(Math.max(min, 1e-3)));
    const hi = Math.ceil(Math.log10(Math.max(max, 1e-3)));
    for (let e = lo; e <= hi; e++) out.push(Math.pow(10, e));
    // Never a tick outside the drawn range: it would be labelled below the axis.
    return out.filter((v) => v >= min * 0.999 && v <= max * 1.001);
  }

  // Which engine ran the scenario (the report names it: the Node runner's numbers are not k6's).
  /** @param {ScenarioReport} s */
  function engineLabel(s) {
    return s.engine && s.engine.label ? s.engine.label : 'not recorded';
  }

  // ---- sections ----
  /** @param {ScenarioReport} s */
  function thresholdsTable(s) {
    return table(
      'thresholds',
      ['metric', 'threshold', 'observed', 'result'],
      s.thresholds.map((t) => ({
        cls: t.pending ? 'pending' : noData(t) ? 'nodata' : t.ok ? 'ok' : 'bad',
        cells: [
          t.metric,
          t.source,
          observed(t),
          t.pending
            ? el('span', { class: 'badge pending' }, 'PENDING')
            : noData(t)
              ? el('span', { class: 'badge nodata' }, 'NO DATA')
              : badge(t.ok),
        ],
      })),
      2,
    );
  }

  /** @param {ScenarioComparison} c */
  function comparison(c) {
    const rows = c.metrics.map((r) => ({ label: r.label, r }));
    for (const e of c.endpoints) for (const r of e.rows) rows.push({ label: e.name + ' ' + r.label, r });
    return [
      el('h3', {}, 'Compared with run ' + c.previousRunId),
      c.engineWarning ? el('p', { class: 'note warn' }, c.engineWarning + '.') : null,
      c.enoughData
        ? null
        : el('p', { class: 'note' }, 'Fewer than 30 requests on one side: deltas shown, nothing flagged.'),
      table(
        'comparison',
        ['metric', 'previous', 'current', 'delta', 'change'],
        rows.map(({ label, r }) => ({
          cls: r.flag,
          cells: [
            label,
            kindValue(r.kind, r.previous),
            kindValue(r.kind, r.current),
            kindDelta(r.kind, r.delta),
            r.flag === 'worse' ? 'worse' : r.flag === 'better' ? 'better' : '',
          ],
        })),
      ),
    ];
  }

  /**
   * @param {ScenarioReport} s
   * @param {number} index
   */
  function scenarioSection(s, index) {
    const charts = el('div', { class: 'charts' });
    const section = el(
      'section',
      { class: 'scenario', id: 'scenario-' + index, 'data-scenario': s.scenario },
      [
        el('h2', {}, [s.scenario + ' ', badge(s.passed)]),
        // One node whatever it holds: live snapshots patch children by position.
        el('div', { class: 'notes' }, [
          el('p', { class: 'note engine' }, 'Engine: ' + engineLabel(s) + '.'),
          s.thresholds.some(noData)
            ? el('p', { class: 'note nodata' }, noDataNote(s.thresholds.filter(noData).length))
            : null,
        ]),
        s.problems.length
          ? el(
              'ul',
              { class: 'problems' },
              s.problems.map((p) => el('li', {}, p)),
            )
          : null,
        el('h3', {}, 'Thresholds'),
        thresholdsTable(s),
        el('h3', {}, 'Time series'),
        charts,
        el('h3', {}, 'Checks'),
        table(
          'checks',
          ['group', 'check', 'passes', 'fails'],
          s.checks.map((c) => ({
            cls: c.fails ? 'bad' : '',
            cells: [c.group || '(root)', c.name, c.passes, c.fails],
          })),
          2,
        ),
        el('h3', {}, 'Endpoints (by name tag)'),
        table(
          'endpoints',
          ['name', 'count', 'req/s', 'error %', 'p50', 'p90', 'p95', 'p99', 'max'],
          s.endpoints.map((e) => ({
            cls: e.errorRate > 0 ? 'bad' : '',
            cells: [
              e.name,
              e.count,
              num(e.rps),
              pct(e.errorRate),
              ms(e.p50),
              ms(e.p90),
              ms(e.p95),
              ms(e.p99),
              ms(e.max),
            ],
          })),
        ),
        el('div', { class: 'pair' }, [
          el('div', {}, [
            el('h3', {}, 'Status codes'),
            table(
              'statuses',
              ['status', 'count'],
              s.statuses.map((r) => ({ cells: [r.key, r.count] })),
            ),
          ]),
          el('div', {}, [
            el('h3', {}, 'Errors'),
            table(
              'errors',
              ['error', 'count'],
              s.errors.map((r) => ({ cells: [r.key, r.count] })),
            ),
          ]),
        ]),
        s.comparison ? comparison(s.comparison) : null,
      ],
    );
    return { section, charts };
  }

  // The page's nodes for a report: header, overview and one section per scenario, with the scenarios' chart
  // containers still empty (charts size themselves to a container that is in the document).
  /**
   * @param {Report} report
   * @param {boolean} live
   */
  function build(report, live) {
    const header = el('header', {}, [
      el('h1', {}, [report.title + ' ', badge(report.passed)]),
      el('p', { class: 'meta' }, [
        live
          ? el('span', { id: 'live-status', class: 'live' }, state.finished ? 'run finished' : 'live')
          : null,
        (live ? ' updated ' : ' generated ') +
          report.generatedAt +
          (report.runId ? ' · run ' + report.runId : ''),
      ]),
    ]);
    const overview = table(
      'overview',
      ['scenario', 'result', 'engine', 'duration', 'requests', 'req/s', 'error %', 'p95', 'checks'],
      report.scenarios.map((s, i) => {
        const t = s.totals;
        return {
          cls: s.passed ? 'ok' : 'bad',
          cells: [
            el('a', { href: '#scenario-' + i }, s.scenario),
            badge(s.passed),
            engineLabel(s),
            duration(t.durationMs),
            t.requests,
            num(t.rps),
            pct(t.errorRate),
            ms(t.p95),
            t.checksPassed + '/' + (t.checksPassed + t.checksFailed),
          ],
        };
      }),
      3, // scenario, result and engine are words
    );
    const skipped =
      report.skipped && report.skipped.length
        ? el('div', { class: 'skipped' }, [
            el('p', { class: 'note warn' }, report.skipped.length + ' input(s) skipped (could not be read):'),
            el(
              'ul',
              { class: 'problems' },
              report.skipped.map((x) => el('li', {}, x.scenario + ': ' + x.reason)),
            ),
          ])
        : null;
    const sections = report.scenarios.map((s, i) => scenarioSection(s, i));
    const empty = report.scenarios.reduce((n, s) => n + s.thresholds.filter(noData).length, 0);
    // Always one notes node, empty or not: live snapshots patch the page's children by position, and a
    // note that came and went would shift every section after it.
    const notes = el('div', { class: 'notes report-notes' }, [
      empty ? el('p', { class: 'note nodata' }, noDataNote(empty)) : null,
      skipped,
    ]);
    const top = [header, overview, notes];
    return { nodes: top.concat(sections.map((x) => x.section)), sections };
  }

  // What a live snapshot must share with the page shown to be applied in place: the same scenarios in the
  // same order and, per scenario, the same charts (none without points), the same series (one per latency
  // threshold) and the same first second (the time axis counts from it).
  /** @param {Report} report */
  function shape(report) {
    return JSON.stringify(
      report.scenarios.map((s) => [
        s.scenario,
        s.series && s.series.t.length > 0 ? s.series.t[0] : null,
        (s.latencyLimits || []).map((l) => l.label),
      ]),
    );
  }

  // The shape of the page shown and, per scenario, its chart container and the charts drawn in it.
  /** @type {{ shape: string | null, sections: { charts: HTMLElement, drawn: DrawnChart[] }[] }} */
  let shown = { shape: null, sections: [] };

  /**
   * @param {HTMLElement} root
   * @param {Report} report
   * @param {boolean} live
   */
  function render(root, report, live) {
    // A full render rebuilds the page: keep the reader where they were scrolled to.
    const scrollY = window.scrollY;
    for (const c of state.charts) c.plot.destroy();
    state.charts = [];
    const page = build(report, live);
    root.replaceChildren(...page.nodes);
    // Charts last: they size themselves to their container, which must be in the document first.
    shown = {
      shape: shape(report),
      sections: page.sections.map(({ charts }, i) => ({
        charts,
        drawn: drawCharts(charts, report.scenarios[i]),
      })),
    };
    if (scrollY > 0) window.scrollTo(0, scrollY);
    state.renders++;
  }

  // ---- live snapshots in place ----
  // A chart container is never patched: its uPlot instances take the new points through setData.
  const isCharts = (n) => n.nodeType === 1 && n.classList.contains('charts');

  // Makes `old` equal to `next` by changing only what differs: untouched nodes keep a reader's text
  // selection, focus and hover. A node of another kind is replaced whole.
  function patch(old, next) {
    if (isCharts(old) || old.isEqualNode(next)) return;
    if (old.nodeName !== next.nodeName) {
      old.replaceWith(next);
      return;
    }
    if (old.nodeType !== 1) {
      old.nodeValue = next.nodeValue;
      return;
    }
    for (const a of [...old.attributes]) if (!next.hasAttribute(a.name)) old.removeAttribute(a.name);
    for (const a of [...next.attributes])
      if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
    patchChildren(old, [...next.childNodes]);
  }

  // Children are matched by position, except that a chart container anchors both lists: what comes
  // before it and what comes after it are patched separately (a list of problems may come and go above it).
  function patchChildren(parent, next) {
    const old = [...parent.childNodes];
    const o = old.findIndex(isCharts);
    const n = next.findIndex(isCharts);
    if (o >= 0 && n >= 0) {
      patchList(parent, old.slice(0, o), next.slice(0, n), old[o]);
      patchList(parent, old.slice(o + 1), next.slice(n + 1), null);
    } else {
      patchList(parent, old, next, null);
    }
  }

  function patchList(parent, old, next, before) {
    next.forEach((node, i) => (i < old.length ? patch(old[i], node) : parent.insertBefore(node, before)));
    for (const node of old.slice(next.length)) node.remove();
  }

  // A snapshot of the same shape updates the page in place; any other shape rebuilds it.
  /**
   * @param {HTMLElement} root
   * @param {Report} report
   */
  function update(root, report) {
    if (shape(report) !== shown.shape) {
      render(root, report, true);
      return;
    }
    patchChildren(root, build(report, true).nodes);
    report.scenarios.forEach((s, i) => updateCharts(shown.sections[i].charts, shown.sections[i].drawn, s));
    state.updates++;
  }

  const root = /** @type {HTMLElement} */ (document.getElementById('app'));
  const config = JSON.parse(document.getElementById('report-config')?.textContent || '{}');
  /** @type {Report | null} */
  const initial = JSON.parse(document.getElementById('report-data')?.textContent || 'null');
  if (initial) render(root, initial, config.live);

  if (config.live && typeof EventSource !== 'undefined') {
    const source = new EventSource(config.eventsPath || 'events');
    source.addEventListener('snapshot', (e) => {
      state.snapshots++;
      update(root, JSON.parse(e.data));
    });
    source.addEventListener('stop', () => {
      state.finished = true;
      const s = document.getElementById('live-status');
      if (s) s.textContent = 'run finished';
      source.close();
    });
  }
})();
