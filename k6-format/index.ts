// k6's formats, shared by the runner, the services' tests, the report, the suite and the dashboards.
export * from './samples.js';
export * from './summary.js';
export * from './thresholds.js';
export * from './percentile.js';
export * from './duration.js';
export * from './go-path-error.js';
export * from './go-quote.js';
export * from './sinks.js';
export * from './ndjson.js';
export * from './go-json.js';
export * from './exit-codes.js';
export * from './http-timings.js';
