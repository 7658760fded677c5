// The k6 load-test dashboard: what a run did (req/s, VUs), how fast (p95/p99 with SLO lines), how well
// (error rate, checks), per endpoint, and bytes moved. Every query is raw InfluxQL over k6's schema
// (one measurement per metric, k6 tags as tags, a `value` field), narrowed by the run's `testid` tag
// and the `scenario` tag.
import type * as cog from '@grafana/grafana-foundation-sdk/cog';
import {
  QueryVariableBuilder,
  RowBuilder,
  VariableRefresh,
  VariableSort,
} from '@grafana/grafana-foundation-sdk/dashboard';
import type { Dashboard, Panel } from '@grafana/grafana-foundation-sdk/dashboard';
import * as table from '@grafana/grafana-foundation-sdk/table';
import { INFLUXDB } from './datasources.js';
import { InfluxQlBuilder } from './influxql.js';
import { loadlabDashboard, singleStat, timeSeries } from './panels.js';

export const K6_DASHBOARD_UID = 'loadlab-k6';

/** Samples of the selected run; `vus`/`vus_max` carry run tags only, so they skip the scenario filter. */
const RUN = `"testid" =~ /^$testid$/ AND $timeFilter`;

/**
 * A distributed run (stack/k8s: k6-operator) has one k6 per pod, each reporting its own `vus` and
 * `vus_max`, tagged `instance_id`. The run's VUs are the sum over instances of each one's value in the
 * bucket; a single k6 has no instance_id and is one group, so the same query serves both.
 */
function vusOfRun(metric: 'vus' | 'vus_max', bucket: string): string {
  return (
    `SELECT sum("vus") FROM (SELECT max("value") AS "vus" FROM "${metric}" WHERE ${RUN} ` +
    `GROUP BY time(${bucket}), "instance_id") WHERE $timeFilter GROUP BY time(${bucket})`
  );
}
const RUN_AND_SCENARIO = `"testid" =~ /^$testid$/ AND "scenario" =~ /^$scenario$/ AND $timeFilter`;

function q(refId: string, query: string, alias?: string): InfluxQlBuilder {
  const target = new InfluxQlBuilder(refId, query);
  return alias ? target.alias(alias) : target;
}

// SLO lines drawn on the latency and error panels: the smoke and load profile limits of the spec.
const LATENCY_SLO: Array<[number, string]> = [
  [1500, 'orange'], // smoke p(95)<1500
  [2500, 'red'], // load p(95)<2500
];
const ERROR_SLO: Array<[number, string]> = [
  [0.005, 'orange'], // smoke and soak rate<0.005
  [0.01, 'red'], // load rate<0.01
];

/** One series of a suite metric, aliased by its name: `select` per interval (default) or per `group`. */
const series = (refId: string, select: string, metric: string, group = 'time($__interval) fill(none)') =>
  q(refId, `SELECT ${select} FROM "${metric}" WHERE ${RUN_AND_SCENARIO} GROUP BY ${group}`, metric);
const p95 = (refId: string, metric: string) => series(refId, 'percentile("value", 95)', metric);
const perSecond = (refId: string, metric: string) =>
  series(refId, 'sum("value")', metric, 'time(1s) fill(0)');

/**
 * The suite's own metrics (k6/): the nine custom metrics of the spec and the gate's
 * completed_iterations (the clinic scripts record none of their own). dashboards.test.ts checks that
 * every metric the suite declares is queried here, influxql.e2e.test.ts that each query finds data.
 */
function suiteMetrics(): cog.Builder<Panel>[] {
  return [
    timeSeries(
      INFLUXDB,
      'Flow durations p95',
      'ms',
      [
        p95('A', 'login_duration'),
        p95('B', 'users_list_duration'),
        p95('C', 'login_flow_duration'),
        p95('D', 'journey_duration'),
        p95('E', 'mixed_request_duration'),
      ],
      {
        sloLines: [
          [2000, 'orange'],
          [4000, 'red'],
        ],
        description:
          'Custom Trends: login_duration (load auth), users_list_duration (load users), login_flow_duration ' +
          '(login flow), journey_duration (authenticated user), mixed_request_duration (mixed traffic). ' +
          'Dashed: p(95) limits 2000 ms (login, users list) and 4000 ms (login flow).',
      },
    ),
    timeSeries(
      INFLUXDB,
      'Failure rates (login_errors, spike_failures)',
      'percentunit',
      [series('A', 'mean("value")', 'login_errors'), series('B', 'mean("value")', 'spike_failures')],
      {
        sloLines: [
          [0.01, 'orange'],
          [0.1, 'red'],
        ],
        description: 'Custom Rates. Dashed: login_errors rate<0.01, spike_failures rate<0.10.',
      },
    ),
    timeSeries(
      INFLUXDB,
      'Degraded responses per second (stress)',
      'short',
      [perSecond('A', 'degraded_responses')],
      {
        description: 'Responses of the stress scenario that failed or took longer than 2 s (informational).',
      },
    ),
    timeSeries(INFLUXDB, 'Browser page load p95', 'ms', [p95('A', 'browser_page_load')], {
      sloLines: [[5000, 'red']],
      description: 'browser_page_load: the login page in Chromium; p(95)<5000.',
    }),
    timeSeries(
      INFLUXDB,
      'Completed iterations per second (the gate)',
      'short',
      [perSecond('A', 'completed_iterations')],
      {
        width: 24,
        description:
          'completed_iterations counts iterations that ran to their end; every scenario fails a run where it stays 0.',
      },
    ),
  ];
}

// The variables list runs and scenarios from `iterations`, which every run records: a browser
// scenario makes no http_reqs, so a list taken from http_reqs would never offer it.
function variables(): QueryVariableBuilder[] {
  return [
    new QueryVariableBuilder('testid')
      .label('Test id')
      .description('The --tag testid=... of a run; the streaming npm scripts set <UTC timestamp>-<scenario>.')
      .datasource(INFLUXDB)
      .query('SHOW TAG VALUES FROM "iterations" WITH KEY = "testid"')
      .refresh(VariableRefresh.OnTimeRangeChanged)
      // Test ids start with a UTC timestamp: newest first.
      .sort(VariableSort.AlphabeticalDesc),
    new QueryVariableBuilder('scenario')
      .label('Scenario')
      .datasource(INFLUXDB)
      .query('SHOW TAG VALUES FROM "iterations" WITH KEY = "scenario" WHERE "testid" =~ /^$testid$/')
      .refresh(VariableRefresh.OnTimeRangeChanged)
      .sort(VariableSort.AlphabeticalAsc)
      .multi(true)
      .includeAll(true)
      .allValue('.*'),
  ];
}

function overview(): cog.Builder<Panel>[] {
  return [
    singleStat(
      INFLUXDB,
      'Requests',
      'short',
      q('A', `SELECT sum("value") FROM "http_reqs" WHERE ${RUN_AND_SCENARIO}`),
    ),
    singleStat(
      INFLUXDB,
      'Failed requests',
      'percentunit',
      q('A', `SELECT mean("value") FROM "http_req_failed" WHERE ${RUN_AND_SCENARIO}`),
      ERROR_SLO,
    ),
    singleStat(
      INFLUXDB,
      'p95 latency',
      'ms',
      q('A', `SELECT percentile("value", 95) FROM "http_req_duration" WHERE ${RUN_AND_SCENARIO}`),
      LATENCY_SLO,
    ),
    singleStat(
      INFLUXDB,
      'Checks passed',
      'percentunit',
      q('A', `SELECT mean("value") FROM "checks" WHERE ${RUN_AND_SCENARIO}`),
      [],
    ),
    singleStat(
      INFLUXDB,
      'Iterations',
      'short',
      q('A', `SELECT sum("value") FROM "iterations" WHERE ${RUN_AND_SCENARIO}`),
    ),
    singleStat(
      INFLUXDB,
      'Peak VUs',
      'short',
      q('A', `SELECT max("sum") FROM (${vusOfRun('vus', '1s')}) WHERE $timeFilter`),
    ),
    singleStat(
      INFLUXDB,
      'Instances',
      'short',
      // One group per instance_id that reported; 1 for a single k6 or the Node runner.
      q(
        'A',
        `SELECT count("peak") FROM (SELECT max("value") AS "peak" FROM "vus_max" WHERE ${RUN} GROUP BY "instance_id")`,
      ),
    ).description('k6 processes that streamed this testid: the runner pods of a k6-operator TestRun.'),
  ];
}

export function k6Dashboard(): Dashboard {
  const builder = loadlabDashboard(
    'k6 load test',
    K6_DASHBOARD_UID,
    'k6 (or the loadlab Node runner) streamed into InfluxDB; queries are InfluxQL.',
    ['k6', 'influxdb'],
  )
    .variables(variables())
    .withRow(new RowBuilder('Run overview'));
  for (const panel of overview()) builder.withPanel(panel);

  builder
    .withRow(new RowBuilder('Throughput and latency'))
    .withPanel(
      timeSeries(INFLUXDB, 'Requests per second', 'reqps', [
        // Fixed 1 s buckets: the sum of http_reqs per second is the request rate itself.
        q(
          'A',
          `SELECT sum("value") FROM "http_reqs" WHERE ${RUN_AND_SCENARIO} GROUP BY time(1s) fill(0)`,
          'req/s',
        ),
      ]),
    )
    .withPanel(
      timeSeries(
        INFLUXDB,
        'Virtual users',
        'short',
        [
          q('A', `${vusOfRun('vus', '$__interval')} fill(previous)`, 'VUs'),
          q('B', `${vusOfRun('vus_max', '$__interval')} fill(previous)`, 'VUs max'),
        ],
        { description: 'Summed over the instances of a distributed run (instance_id).' },
      ),
    )
    .withPanel(
      timeSeries(
        INFLUXDB,
        'Response time p95 / p99 (http_req_duration)',
        'ms',
        [
          q(
            'A',
            `SELECT percentile("value", 95) AS "p95", percentile("value", 99) AS "p99" FROM "http_req_duration" ` +
              `WHERE ${RUN_AND_SCENARIO} GROUP BY time($__interval) fill(none)`,
          ),
        ],
        {
          sloLines: LATENCY_SLO,
          description: 'Dashed lines: p(95) limits of the smoke (1500 ms) and load (2500 ms) profiles.',
        },
      ),
    )
    .withPanel(
      timeSeries(
        INFLUXDB,
        'p95 by endpoint tag',
        'ms',
        [
          q(
            'A',
            `SELECT percentile("value", 95) FROM "http_req_duration" WHERE ${RUN_AND_SCENARIO} ` +
              `GROUP BY time($__interval), "endpoint" fill(none)`,
            '$tag_endpoint',
          ),
        ],
        { sloLines: LATENCY_SLO },
      ),
    )
    .withRow(new RowBuilder('Errors and checks'))
    .withPanel(
      timeSeries(
        INFLUXDB,
        'Error rate (http_req_failed)',
        'percentunit',
        [
          q(
            'A',
            `SELECT mean("value") FROM "http_req_failed" WHERE ${RUN_AND_SCENARIO} GROUP BY time($__interval) fill(none)`,
            'failed',
          ),
        ],
        {
          sloLines: ERROR_SLO,
          description: 'Dashed lines: rate limits of the smoke (0.5 %) and load (1 %) profiles.',
        },
      ),
    )
    .withPanel(
      timeSeries(INFLUXDB, 'Checks pass rate by check', 'percentunit', [
        q(
          'A',
          `SELECT mean("value") FROM "checks" WHERE ${RUN_AND_SCENARIO} GROUP BY time($__interval), "check" fill(none)`,
          '$tag_check',
        ),
      ]),
    )
    .withRow(new RowBuilder('Endpoints'))
    .withPanel(
      new table.PanelBuilder()
        .title('Per endpoint (name tag)')
        .datasource(INFLUXDB)
        .span(24)
        .height(9)
        .targets([
          q(
            'A',
            `SELECT count("value") AS "requests", mean("value") AS "avg ms", percentile("value", 95) AS "p95 ms", ` +
              `max("value") AS "max ms" FROM "http_req_duration" WHERE ${RUN_AND_SCENARIO} GROUP BY "name"`,
          ).table(),
          q(
            'B',
            `SELECT mean("value") AS "failed" FROM "http_req_failed" WHERE ${RUN_AND_SCENARIO} GROUP BY "name"`,
          ).table(),
        ])
        // One row per name, with the failure rate joined next to the latencies.
        .withTransformation({ id: 'merge', options: {} }),
    )
    .withRow(new RowBuilder('Suite metrics'));
  for (const panel of suiteMetrics()) builder.withPanel(panel);
  builder
    .withRow(new RowBuilder('Data transfer'))
    .withPanel(
      timeSeries(
        INFLUXDB,
        'Data received / sent',
        'Bps',
        [
          q(
            'A',
            `SELECT sum("value") FROM "data_received" WHERE ${RUN_AND_SCENARIO} GROUP BY time(1s) fill(0)`,
            'received',
          ),
          q(
            'B',
            `SELECT sum("value") FROM "data_sent" WHERE ${RUN_AND_SCENARIO} GROUP BY time(1s) fill(0)`,
            'sent',
          ),
        ],
        { width: 24 },
      ),
    );
  return builder.build();
}
