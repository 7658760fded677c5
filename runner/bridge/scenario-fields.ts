// The JSON fields of k6's scenario configs (lib/executor's config structs), in k6's order: what the
// options' decoder accepts (options/options-json.ts) and what exec.test.options shows of each
// scenario (modules/execution/test-options.ts).

/** The fields every executor's config has (`options` only when given: k6 omits it when empty). */
export const SCENARIO_BASE_FIELDS = [
  'executor',
  'startTime',
  'gracefulStop',
  'env',
  'exec',
  'tags',
  'options',
];

/** Each executor's own fields, after the base ones; the executors k6 knows are its keys. */
export const EXECUTOR_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'shared-iterations': ['vus', 'iterations', 'maxDuration'],
  'per-vu-iterations': ['vus', 'iterations', 'maxDuration'],
  'constant-vus': ['vus', 'duration'],
  'ramping-vus': ['startVUs', 'stages', 'gracefulRampDown'],
  'constant-arrival-rate': ['rate', 'timeUnit', 'duration', 'preAllocatedVUs', 'maxVUs'],
  'ramping-arrival-rate': ['startRate', 'timeUnit', 'stages', 'preAllocatedVUs', 'maxVUs'],
  'externally-controlled': ['vus', 'duration', 'maxVUs'],
};
