// k6's built-in metrics (metrics/builtin.go) with their types, so thresholds on metrics that
// never received a sample still evaluate and validate as k6 does.
import { HTTP_TIMING_METRICS } from '@loadlab/k6-format/http-timings';
import type { MetricType, ValueType } from '../contracts.js';

const TIME_TRENDS = [
  ...HTTP_TIMING_METRICS,
  'iteration_duration',
  'group_duration',
  // k6/ws and k6/experimental/websockets (k6 registers them with the others, imported or not).
  'ws_connecting',
  'ws_session_duration',
  'ws_ping',
  // k6/net/grpc.
  'grpc_req_duration',
];

export const BUILTIN_METRICS: Record<string, { type: MetricType; contains: ValueType }> = {
  vus: { type: 'gauge', contains: 'default' },
  vus_max: { type: 'gauge', contains: 'default' },
  iterations: { type: 'counter', contains: 'default' },
  dropped_iterations: { type: 'counter', contains: 'default' },
  data_sent: { type: 'counter', contains: 'data' },
  data_received: { type: 'counter', contains: 'data' },
  checks: { type: 'rate', contains: 'default' },
  http_reqs: { type: 'counter', contains: 'default' },
  http_req_failed: { type: 'rate', contains: 'default' },
  ws_sessions: { type: 'counter', contains: 'default' },
  ws_msgs_sent: { type: 'counter', contains: 'default' },
  ws_msgs_received: { type: 'counter', contains: 'default' },
  ...Object.fromEntries(
    TIME_TRENDS.map((name) => [name, { type: 'trend' as const, contains: 'time' as const }]),
  ),
};

/**
 * Metrics the k6/browser module registers when a script imports it (k6 registers them on import,
 * so a threshold on them is valid only then). browser_web_vital_cls is a score, not a time.
 */
export const BROWSER_METRICS: Record<string, { type: MetricType; contains: ValueType }> = {
  browser_data_sent: { type: 'counter', contains: 'data' },
  browser_data_received: { type: 'counter', contains: 'data' },
  browser_http_req_duration: { type: 'trend', contains: 'time' },
  browser_http_req_failed: { type: 'rate', contains: 'default' },
  ...Object.fromEntries(
    ['lcp', 'fcp', 'ttfb', 'inp', 'fid'].map((v) => [
      `browser_web_vital_${v}`,
      { type: 'trend' as const, contains: 'time' as const },
    ]),
  ),
  browser_web_vital_cls: { type: 'trend', contains: 'default' },
};
