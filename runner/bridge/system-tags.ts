// k6's system tags, and the filter options.systemTags applies to them: used by the VU for the
// samples it tags and by the main thread for the HTTP samples it builds (http-samples.ts).

/** Tags k6 treats as system tags: dropped unless enabled (options.systemTags). */
export const SYSTEM_TAGS = new Set([
  'proto',
  'subproto',
  'status',
  'method',
  'url',
  'name',
  'group',
  'check',
  'error',
  'error_code',
  'tls_version',
  'scenario',
  'service',
  'expected_response',
  'vu',
  'iter',
  'ip',
  'ocsp_status',
]);

/**
 * Removes, in place, the system tags `enabled` leaves out (all are kept when it is undefined, i.e.
 * options.systemTags is not set). Returns the same object.
 */
export function filterSystemTags(
  tags: Record<string, string>,
  enabled: ReadonlySet<string> | undefined,
): Record<string, string> {
  if (enabled) {
    for (const k of Object.keys(tags)) {
      if (SYSTEM_TAGS.has(k) && !enabled.has(k)) delete tags[k];
    }
  }
  return tags;
}
