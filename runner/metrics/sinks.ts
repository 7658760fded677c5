// k6's sinks and statistics live in k6-format (shared with the report and the live dashboard).
export * from '@loadlab/k6-format/sinks';
