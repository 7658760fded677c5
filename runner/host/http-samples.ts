// The main thread's side of a VU's HTTP samples. A request's nine samples per hop are built here,
// in the one hot isolate, from the answer the engine sent and the tags the request carried; the
// VU only adds a row naming the request (sample-batch.ts), so that the samples keep their place
// among the VU's other samples. Building the tag set in each of 50 cold VU isolates, and cloning
// it and the hop's timings across, was a sixth of a request's VU-thread instructions.
import { maskedCredentials } from '../bridge/url-credentials.js';
import { HTTP_TIMING_TRENDS } from '@loadlab/k6-format/http-timings';
import type { Sample } from '../contracts.js';
import { DEFAULT_EXPECTED, type WireHop, type WireRequest, type WireResponse } from '../bridge/protocol.js';
import { filterSystemTags } from '../bridge/system-tags.js';

/** True when `status` is in one of the [min, max, ...] ranges. */
export function isExpected(ranges: readonly number[], status: number): boolean {
  for (let i = 0; i < ranges.length; i += 2) {
    if (status >= ranges[i]! && status <= ranges[i + 1]!) return true;
  }
  return false;
}

/** One VU's answered requests, kept until the VU's sample row for each arrives. */
export class HttpSampleBook {
  readonly #answered = new Map<number, { req: WireRequest; hops: WireHop[] }>();

  constructor(private readonly systemTags: ReadonlySet<string> | undefined) {}

  /** Called before the answer is posted, so the VU's row can never arrive first. */
  answered(req: WireRequest, res: WireResponse): void {
    this.#answered.set(req.id, { req, hops: res.hops });
  }

  /** Requests answered whose row has not arrived (the VU was stopped in between, or not yet). */
  get pending(): number {
    return this.#answered.size;
  }

  /** The HttpRowExpander of decodeSamples: every hop's samples, as k6 emits them. */
  readonly expand = (out: Sample[], id: number, base: Record<string, string>): void => {
    const entry = this.#answered.get(id);
    if (!entry) throw new Error(`no answer kept for HTTP request ${id}`);
    this.#answered.delete(id);
    const { req, hops } = entry;
    const ranges = req.expect === undefined ? DEFAULT_EXPECTED : req.expect;
    for (const hop of hops) {
      if (!hop.sampled) continue;
      const expected =
        ranges === null ? undefined : (hop.expected ?? (hop.status !== 0 && isExpected(ranges, hop.status)));
      pushHopSamples(out, hop.timings, expected, this.hopTags(base, req, hop, expected), hop.time);
    }
  };

  /** The tag set of a hop, keys in k6's order: base, the request's system tags, then params.tags. */
  private hopTags(
    base: Record<string, string>,
    req: WireRequest,
    hop: WireHop,
    expected: boolean | undefined,
  ): Record<string, string> {
    // The hop's URL is Go's url.URL.String() of the request (go-url-string.ts), credentials masked.
    const url = req.nameTag ?? maskedCredentials(hop.url);
    // Copied key by key: a spread of the deserialized base gave a map whose later stores missed
    // their inline cache on every request (callgrind: a new map transition per store).
    const tags: Record<string, string> = {};
    for (const k in base) tags[k] = base[k]!;
    tags.method = hop.method;
    tags.name = url;
    tags.url = url;
    tags.status = String(hop.status);
    if (hop.proto) tags.proto = hop.proto;
    if (hop.errorCode) tags.error_code = String(hop.errorCode);
    if (hop.error) tags.error = hop.error;
    if (hop.tlsVersion) tags.tls_version = hop.tlsVersion;
    if (expected !== undefined) tags.expected_response = String(expected);
    if (req.userTags) Object.assign(tags, req.userTags);
    // A name given for the request is also its url tag, over a `url` in params.tags.
    if (req.nameTag !== undefined) tags.url = req.nameTag;
    return filterSystemTags(tags, this.systemTags);
  }
}

function pushHopSamples(
  out: Sample[],
  t: number[],
  expected: boolean | undefined,
  tags: Sample['tags'],
  time: number,
): void {
  out.push({ metric: 'http_reqs', type: 'counter', contains: 'default', value: 1, tags, time });
  for (const { metric, index } of HTTP_TIMING_TRENDS)
    out.push({ metric, type: 'trend', contains: 'time', value: t[index]!, tags, time });
  if (expected !== undefined) {
    out.push({
      metric: 'http_req_failed',
      type: 'rate',
      contains: 'default',
      value: expected ? 0 : 1,
      tags,
      time,
    });
  }
}
