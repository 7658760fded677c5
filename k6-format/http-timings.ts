// The timings k6 measures for each HTTP request, in one order: Response.timings' keys
// (lib/netext/httpext/response.go ResponseTimings) and the trends a request is sampled as
// (lib/netext/httpext/tracer.go, http_req_duration first). A request's timings travel between the
// runner's threads as numbers in this order; the summary lists the trends in it.

/** Response.timings keys, in k6's order. */
export const HTTP_TIMING_KEYS = [
  'duration',
  'blocked',
  'looking_up',
  'connecting',
  'tls_handshaking',
  'sending',
  'waiting',
  'receiving',
] as const;

export type HttpTimingKey = (typeof HTTP_TIMING_KEYS)[number];

/** Response.timings: every key, in HTTP_TIMING_KEYS order. */
export type HttpTimings = Record<HttpTimingKey, number>;

/** Each key's position in HTTP_TIMING_KEYS: where a list of a request's timings holds it. */
export const HTTP_TIMING = Object.fromEntries(HTTP_TIMING_KEYS.map((key, i) => [key, i])) as {
  readonly [K in HttpTimingKey]: number;
};

/** The timings k6 samples as trends: all but looking_up, which k6 measures as 0 and never emits. */
type SampledTimingKey = Exclude<HttpTimingKey, 'looking_up'>;

/** k6's per-request timing trends, in the order k6 emits them, with the key each one samples. */
export const HTTP_TIMING_TRENDS = HTTP_TIMING_KEYS.filter(
  (key): key is SampledTimingKey => key !== 'looking_up',
).map((key) => ({ key, metric: `http_req_${key}` as const, index: HTTP_TIMING[key] }));

/** The names of HTTP_TIMING_TRENDS: `http_req_duration`, `http_req_blocked`, ... */
export const HTTP_TIMING_METRICS = HTTP_TIMING_TRENDS.map(({ metric }) => metric);

/** A request's timings as the list that travels between threads, in HTTP_TIMING_KEYS order. */
export function httpTimingValues(timings: HttpTimings): number[] {
  return HTTP_TIMING_KEYS.map((key) => timings[key]);
}

/** Response.timings from a request's timings in HTTP_TIMING_KEYS order, keys in k6's order. */
export function httpTimingsOf(values: readonly number[]): HttpTimings {
  const timings = {} as HttpTimings;
  for (let i = 0; i < HTTP_TIMING_KEYS.length; i++) timings[HTTP_TIMING_KEYS[i]!] = values[i]!;
  return timings;
}
