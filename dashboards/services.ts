// The services dashboard: what the sandbox and clinic saw from the inside, from their prom-client
// metrics (services/shared/metrics.ts) scraped by Prometheus: rate, errors and duration per route,
// event-loop lag, memory and CPU, and the clinic's PostgreSQL pool when it runs on that store.
import {
  QueryVariableBuilder,
  RowBuilder,
  VariableRefresh,
  VariableSort,
} from '@grafana/grafana-foundation-sdk/dashboard';
import type { Dashboard } from '@grafana/grafana-foundation-sdk/dashboard';
import { DataqueryBuilder } from '@grafana/grafana-foundation-sdk/prometheus';
import { PROMETHEUS } from './datasources.js';
import { loadlabDashboard, timeSeries } from './panels.js';

export const SERVICES_DASHBOARD_UID = 'loadlab-services';

const JOB = 'job=~"$job"';

function promql(refId: string, expr: string, legend: string): DataqueryBuilder {
  return new DataqueryBuilder().refId(refId).datasource(PROMETHEUS).expr(expr).legendFormat(legend).range();
}

const requestRate = (filter: string) =>
  `sum by (job, route) (rate(http_requests_total{${filter}}[$__rate_interval]))`;

export function servicesDashboard(): Dashboard {
  return loadlabDashboard(
    'services',
    SERVICES_DASHBOARD_UID,
    'Sandbox and clinic metrics from prom-client, scraped by Prometheus.',
    ['services', 'prometheus'],
  )
    .withVariable(
      new QueryVariableBuilder('job')
        .label('Service')
        .datasource(PROMETHEUS)
        .query('label_values(http_requests_total, job)')
        .refresh(VariableRefresh.OnTimeRangeChanged)
        .sort(VariableSort.AlphabeticalAsc)
        .multi(true)
        .includeAll(true)
        .allValue('.*'),
    )
    .withRow(new RowBuilder('HTTP'))
    .withPanel(
      timeSeries(PROMETHEUS, 'Request rate by route', 'reqps', [
        promql('A', requestRate(JOB), '{{job}} {{route}}'),
      ]),
    )
    .withPanel(
      timeSeries(
        PROMETHEUS,
        'Error ratio (5xx) by route',
        'percentunit',
        [
          promql(
            'A',
            // `or ... * 0` keeps a 0 line for routes without 5xx instead of an empty panel.
            `${requestRate(`${JOB},status=~"5.."`)} / ${requestRate(JOB)} or ${requestRate(JOB)} * 0`,
            '{{job}} {{route}}',
          ),
        ],
        { sloLines: [[0.01, 'red']] },
      ),
    )
    .withPanel(
      timeSeries(PROMETHEUS, 'Duration p95 by route', 's', [
        promql(
          'A',
          `histogram_quantile(0.95, sum by (job, route, le) (rate(http_request_duration_seconds_bucket{${JOB}}[$__rate_interval])))`,
          '{{job}} {{route}}',
        ),
      ]),
    )
    .withPanel(
      timeSeries(PROMETHEUS, 'Responses by status', 'reqps', [
        promql(
          'A',
          `sum by (job, status) (rate(http_requests_total{${JOB}}[$__rate_interval]))`,
          '{{job}} {{status}}',
        ),
      ]),
    )
    .withRow(new RowBuilder('Node.js runtime'))
    .withPanel(
      timeSeries(PROMETHEUS, 'Event-loop lag', 's', [
        promql('A', `nodejs_eventloop_lag_p99_seconds{${JOB}}`, '{{job}} {{instance}} p99'),
        promql('B', `nodejs_eventloop_lag_mean_seconds{${JOB}}`, '{{job}} {{instance}} mean'),
      ]),
    )
    .withPanel(
      timeSeries(PROMETHEUS, 'Memory', 'bytes', [
        promql('A', `process_resident_memory_bytes{${JOB}}`, '{{job}} {{instance}} RSS'),
        promql('B', `nodejs_heap_size_used_bytes{${JOB}}`, '{{job}} {{instance}} heap used'),
      ]),
    )
    .withPanel(
      timeSeries(
        PROMETHEUS,
        'CPU',
        'percentunit',
        [promql('A', `rate(process_cpu_seconds_total{${JOB}}[$__rate_interval])`, '{{job}} {{instance}}')],
        { width: 24 },
      ),
    )
    .withRow(new RowBuilder('Database'))
    .withPanel(
      timeSeries(
        PROMETHEUS,
        'Clinic database pool',
        'short',
        [
          promql('A', `clinic_db_pool_clients{${JOB}}`, '{{job}} connections'),
          promql('B', `clinic_db_pool_idle_clients{${JOB}}`, '{{job}} idle'),
          promql('C', `clinic_db_pool_waiting_requests{${JOB}}`, '{{job}} waiting queries'),
        ],
        {
          // Waiting queries above 0 mean the pool, not the service, is the bottleneck of the test.
          description:
            'PostgreSQL pool of each clinic instance (CLINIC_DB=postgres): connections open, idle, and queries waiting for one. Empty on the in-memory store and for the sandbox, which have no pool.',
          width: 24,
        },
      ),
    )
    .build();
}
