// Hostile requests for any HTTP service, generated from its list of routes: what an attacker or a
// broken client sends. Every request is raw bytes (probe.ts sends them), so lies an HTTP client
// would refuse to tell (a Content-Length over the body, two Content-Lengths, no Host) are possible.

export interface RouteUnderTest {
  method: string;
  /** Path with `{name}` placeholders, e.g. `/petclinic/api/owners/{ownerId}`. */
  template: string;
  /** A plausible JSON body for routes that take one; its fields are mutated one by one. */
  body?: Record<string, unknown>;
}

export interface HostileRequest {
  /** What the request tries, for failure messages. */
  name: string;
  method: string;
  /** Request target as sent, already escaped (or deliberately not). */
  target: string;
  headers: [string, string][];
  body?: Buffer;
  /** Send no Content-Length (the request sets its own framing, or none). */
  ownFraming?: boolean;
  /** Leave out the Host header. */
  noHost?: boolean;
}

const BAD_ESCAPES = ['%E0', '%', '%zz', '%ff', '%c0%af', '%00', '%2e%2e%2f', '%%', '%u0041'];
const ODD_IDS = [
  ...'__proto__ constructor -1 1e999 99999999999999999999 0x10 %201'.split(' '),
  'x'.repeat(4000),
];
const ODD_METHODS = ['PATCH', 'PUT', 'DELETE', 'POST', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'FOO'];
const ODD_QUERIES = [
  '?page=-1&size=abc',
  '?size=99999999999&page=99999999999',
  '?lastName=%',
  '?%E0=1',
  '?__proto__[polluted]=1&constructor[prototype][polluted]=1',
  '?lastName[$gt]=&lastName=a&lastName=b',
  `?q=${'x'.repeat(6000)}`,
];
const MALFORMED_JSON = ['{', '{"a":', 'nul', '[1,]', '{"a":1}}', '\u0000', '{"a":"\\ud800"}', "{'a':1}", ''];
const WRONG_VALUES: unknown[] = [
  null,
  '',
  123,
  -1,
  1e308,
  'abc',
  [],
  {},
  true,
  'x'.repeat(10_000),
  '\u0000',
  '💥'.repeat(200),
];
const DEEP = 5000;

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const JSON_TYPE: [string, string] = ['Content-Type', 'application/json'];

/** The target with every placeholder set to `id` (raw, not escaped again). */
function fill(template: string, id: string): string {
  return template.replace(/\{[^}]+\}/g, id);
}

function placeholders(template: string): string[] {
  return template.match(/\{[^}]+\}/g) ?? [];
}

/** One target per bad id or escape, in each placeholder in turn (others valid), or appended. */
function badTargets(route: RouteUnderTest): { name: string; target: string }[] {
  const names = placeholders(route.template);
  const variants = [...BAD_ESCAPES, ...ODD_IDS];
  if (names.length === 0) {
    return [
      ...BAD_ESCAPES.map((bad) => ({ name: `${bad} appended`, target: `${route.template}/${bad}` })),
      ...ODD_QUERIES.map((q) => ({ name: `query ${q.slice(0, 40)}`, target: `${route.template}${q}` })),
    ];
  }
  return names.flatMap((name) =>
    variants.map((bad) => ({
      name: `${name}=${bad.slice(0, 20)}`,
      target: route.template.replace(/\{[^}]+\}/g, (p) => (p === name ? bad : '1')),
    })),
  );
}

function bodies(route: RouteUnderTest): { name: string; body: Buffer; headers?: [string, string][] }[] {
  const sample = route.body ?? { a: 1 };
  const deep = '['.repeat(DEEP) + ']'.repeat(DEEP);
  const out: { name: string; body: Buffer; headers?: [string, string][] }[] = [
    ...MALFORMED_JSON.map((text) => ({ name: `malformed ${JSON.stringify(text)}`, body: Buffer.from(text) })),
    ...[[], 'text', 42, null, true].map((v) => ({ name: `body ${JSON.stringify(v)}`, body: json(v) })),
    { name: 'nested 5000 deep', body: Buffer.from(deep) },
    { name: 'field nested 5000 deep', body: Buffer.from(`{"${Object.keys(sample)[0] ?? 'a'}":${deep}}`) },
    {
      name: '__proto__ key',
      body: Buffer.from(`{"__proto__":{"polluted":1},${JSON.stringify(sample).slice(1)}`),
    },
    {
      name: 'constructor.prototype key',
      body: json({ ...sample, constructor: { prototype: { polluted: 1 } } }),
    },
    { name: 'body of 1 MB', body: json({ ...sample, pad: 'x'.repeat(1 << 20) }) },
    { name: 'gzip that is not gzip', body: Buffer.from('not gzip'), headers: [['Content-Encoding', 'gzip']] },
    { name: 'deflate that is not', body: Buffer.from('xx'), headers: [['Content-Encoding', 'deflate']] },
    { name: 'brotli that is not', body: Buffer.from('xx'), headers: [['Content-Encoding', 'br']] },
    { name: 'unknown encoding', body: json(sample), headers: [['Content-Encoding', 'x-unknown, gzip']] },
    {
      name: 'charset utf-7',
      body: json(sample),
      headers: [['Content-Type', 'application/json; charset=utf-7']],
    },
    { name: 'text/plain', body: json(sample), headers: [['Content-Type', 'text/plain']] },
    {
      name: 'form',
      body: Buffer.from('a=1&b=2'),
      headers: [['Content-Type', 'application/x-www-form-urlencoded']],
    },
    { name: 'content type garbage', body: json(sample), headers: [['Content-Type', ';;;/=\u00ff']] },
  ];
  for (const field of Object.keys(sample)) {
    for (const value of WRONG_VALUES) {
      const shown = JSON.stringify(value)?.slice(0, 20);
      out.push({ name: `${field}=${shown}`, body: json({ ...sample, [field]: value }) });
    }
  }
  return out;
}

/** Framing lies and odd headers, with the route's own method and a filled-in target. */
function framings(route: RouteUnderTest, target: string): HostileRequest[] {
  const { method } = route;
  const base = (
    name: string,
    headers: [string, string][],
    body?: Buffer,
    extra: Partial<HostileRequest> = {},
  ) => ({
    name,
    method,
    target,
    headers,
    body,
    ...extra,
  });
  return [
    base(
      'Content-Length 1e9 with 2 bytes',
      [JSON_TYPE, ['Content-Length', '1000000000']],
      Buffer.from('{}'),
      {
        ownFraming: true,
      },
    ),
    base(
      'Content-Length shorter than the body',
      [JSON_TYPE, ['Content-Length', '2']],
      Buffer.from('{}{"a":1}'),
      {
        ownFraming: true,
      },
    ),
    base('Content-Length not a number', [JSON_TYPE, ['Content-Length', 'abc']], Buffer.from('{}'), {
      ownFraming: true,
    }),
    base(
      'two Content-Lengths',
      [JSON_TYPE, ['Content-Length', '2'], ['Content-Length', '3']],
      Buffer.from('{} '),
      {
        ownFraming: true,
      },
    ),
    base(
      'chunked and Content-Length',
      [JSON_TYPE, ['Transfer-Encoding', 'chunked'], ['Content-Length', '2']],
      Buffer.from('2\r\n{}\r\n0\r\n\r\n'),
      {
        ownFraming: true,
      },
    ),
    base('bad chunk', [JSON_TYPE, ['Transfer-Encoding', 'chunked']], Buffer.from('zz\r\n{}\r\n0\r\n\r\n'), {
      ownFraming: true,
    }),
    base(
      'chunked 1 MB',
      [JSON_TYPE, ['Transfer-Encoding', 'chunked']],
      Buffer.from(`100000\r\n${'x'.repeat(0x100000)}\r\n0\r\n\r\n`),
      {
        ownFraming: true,
      },
    ),
    base('no Host', [], undefined, { noHost: true }),
    base('Host that is no host', [['Host', 'a b/c?d']], undefined, { noHost: true }),
    base('Expect: 100-continue', [JSON_TYPE, ['Expect', '100-continue']], json(route.body ?? {})),
    base('Expect: tea', [['Expect', 'tea']]),
    base('Accept: text/html', [['Accept', 'text/html']]),
    base('Accept garbage', [['Accept', ';;q=x,/']]),
    base('Authorization: Basic !!!', [['Authorization', 'Basic !!!']]),
    base('Authorization without colon', [
      ['Authorization', `Basic ${Buffer.from('nocolon').toString('base64')}`],
    ]),
    base('Authorization: Bearer 8 KB', [['Authorization', `Bearer ${'x'.repeat(8000)}`]]),
    base('Authorization: Digest', [['Authorization', 'Digest username="a"']]),
    base('Range past the end', [['Range', 'bytes=999999-']]),
    base('Range garbage', [['Range', 'bytes=--,']]),
    base('If-None-Match garbage', [['If-None-Match', '"\u00ff']]),
    base('header of 20 KB', [['X-Big', 'a'.repeat(20_000)]]),
    base('X-Fault headers', [
      ['X-Fault-Latency-Ms', 'NaN'],
      ['X-Fault-Error-Rate', '1e999'],
    ]),
    base('X-HTTP-Method-Override', [['X-HTTP-Method-Override', 'DELETE']]),
  ];
}

/** Every hostile request for the routes, in a fixed order. */
export function hostileCorpus(routes: RouteUnderTest[]): HostileRequest[] {
  const corpus: HostileRequest[] = [];
  for (const route of routes) {
    const target = fill(route.template, '1');
    const tag = `${route.method} ${route.template}`;
    for (const { name, target: bad } of badTargets(route))
      corpus.push({ name: `${tag}: ${name}`, method: route.method, target: bad, headers: [] });
    for (const method of ODD_METHODS)
      corpus.push({ name: `${tag}: method ${method}`, method, target, headers: [] });
    for (const request of framings(route, target))
      corpus.push({ ...request, name: `${tag}: ${request.name}` });
    for (const { name, body, headers } of bodies(route))
      corpus.push({
        name: `${tag}: ${name}`,
        method: route.method,
        target,
        headers: [JSON_TYPE, ...(headers ?? [])],
        body,
      });
  }
  return corpus;
}

/** Every `n`-th request from a fixed offset, at most `max`: the same sample on every run. */
export function sampleEvenly<T>(items: T[], max: number): T[] {
  if (items.length <= max) return items;
  const step = items.length / max;
  return Array.from({ length: max }, (_, i) => items[Math.floor(i * step)]!);
}
