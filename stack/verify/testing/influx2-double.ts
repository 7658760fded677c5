// A stand-in for InfluxDB 2's HTTP API in front of a real InfluxDB 1.x (no InfluxDB 2 runs here).
// /query passes through to the real server once the request carries InfluxDB 2's token header; POST
// /api/v2/query is checked against influxdata/influxdb v2.7.12's http/query.go (JSON body with
// `query` and `type: "flux"`, :25-28 and :87-89; `org` in the URL, http/requests.go:30) and answers
// the one Flux shape stack:verify sends (influx2.ts fluxCountOfRun) by asking the real server the same
// question in InfluxQL. Any other Flux is refused: this double does not pretend to run Flux.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Influx2Double {
  url: string;
  violations: string[];
  close(): Promise<void>;
}

const COUNT_SHAPE =
  /^from\(bucket: "([^"\\]+)"\)\n {2}\|> range\(start: (\S+), stop: (\S+)\)\n {2}\|> filter\(fn: \(r\) => r\.testid == "((?:[^"\\]|\\.)*)" and r\._field == "value"\)\n {2}\|> group\(\)\n {2}\|> count\(\)$/;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startInflux2Double(options: {
  influx1Url: string;
  token: string;
  org: string;
  bucket: string;
}): Promise<Influx2Double> {
  const violations: string[] = [];
  const refuse = (res: ServerResponse, status: number, message: string) => {
    violations.push(message);
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ code: 'invalid', message }));
  };

  async function flux(req: IncomingMessage, res: ServerResponse, url: URL) {
    if (url.searchParams.get('org') !== options.org)
      return refuse(res, 400, `org=${url.searchParams.get('org')}`);
    if (!/^application\/json\b/.test(req.headers['content-type'] ?? ''))
      return refuse(res, 400, `Flux sent as ${req.headers['content-type']}, not application/json`);
    let body: { query?: unknown; type?: unknown };
    try {
      body = JSON.parse((await readBody(req)).toString('utf8')) as typeof body;
    } catch {
      return refuse(res, 400, 'failed parsing request body as JSON');
    }
    if (body.type !== 'flux') return refuse(res, 400, `unknown query type: ${String(body.type)}`);
    const match = COUNT_SHAPE.exec(String(body.query ?? ''));
    if (!match)
      return refuse(res, 400, `the double answers only stack:verify's count, not: ${String(body.query)}`);
    const [, bucket, start, stop, testid] = match;
    if (bucket !== options.bucket) return refuse(res, 404, `bucket "${bucket}" not found`);
    const id = testid!.replace(/\\(.)/g, '$1').replace(/'/g, "\\'");
    const q = `SELECT count("value") FROM /.*/ WHERE "testid" = '${id}' AND time >= '${start}' AND time <= '${stop}'`;
    const answer = await fetch(`${options.influx1Url}/query`, {
      method: 'POST',
      body: new URLSearchParams({ db: bucket!, q }),
    });
    const json = (await answer.json()) as { results?: Array<{ series?: Array<{ values: unknown[][] }> }> };
    const total = (json.results?.[0]?.series ?? []).reduce(
      (sum, s) => sum + Number(s.values[0]?.[1] ?? 0),
      0,
    );
    res.writeHead(200, { 'Content-Type': 'text/csv; charset=utf-8' });
    res.end(
      [
        '#datatype,string,long,long',
        '#group,false,false,false',
        '#default,_result,,',
        ',result,table,_value',
        `,,0,${total}`,
        '',
      ].join('\r\n'),
    );
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://double');
    void (async () => {
      if (req.headers.authorization !== `Token ${options.token}`)
        return refuse(res, 401, `${req.method} ${url.pathname} without "Authorization: Token <token>"`);
      if (req.method === 'POST' && url.pathname === '/api/v2/query') return flux(req, res, url);
      if (url.pathname === '/query') {
        const body = await readBody(req);
        const answer = await fetch(`${options.influx1Url}/query${url.search}`, {
          method: req.method,
          headers: { 'Content-Type': req.headers['content-type'] ?? 'application/x-www-form-urlencoded' },
          body: req.method === 'POST' ? body : undefined,
        });
        res.writeHead(answer.status, { 'Content-Type': 'application/json' });
        return res.end(Buffer.from(await answer.arrayBuffer()));
      }
      refuse(res, 404, `${req.method} ${url.pathname}: not an API stack:verify should call`);
    })().catch((error: Error) => refuse(res, 500, error.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    violations,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
