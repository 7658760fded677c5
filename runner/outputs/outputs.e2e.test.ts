import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OutputContext, Sample } from '../contracts.js';
import { createInfluxDbV1Output, createInfluxDbV2Output } from './influxdb.js';
import { toLine } from './line-protocol.js';
import { rfc3339Nano } from './time-format.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

async function stub(status = 204): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

const sample: Sample = {
  metric: 'http_req_duration',
  type: 'trend',
  contains: 'time',
  value: 0.641012,
  tags: {
    endpoint: 'health',
    group: '::01_login',
    method: 'GET',
    name: 'GET /health',
    status: '200',
    url: 'GET /health',
    scenario: 'default',
    expected_response: 'true',
    proto: 'HTTP/1.1',
  },
  // Sample times are float milliseconds: exact to the microsecond here, as k6 needs for ordering.
  time: 1795352085629.5,
};

const ctx = (argument: string, env: Record<string, string> = {}, warnings: string[] = []): OutputContext => ({
  scriptPath: 's.js',
  options: {},
  argument,
  env: { K6_INFLUXDB_PUSH_INTERVAL: '50ms', ...env },
  warn: (m) => warnings.push(m),
});

describe('runner outputs', () => {
  it("writes k6's line protocol: sorted tags, url as a field, Go floats, ns time", () => {
    assert.equal(
      toLine(sample, new Set(['vu', 'iter', 'url'])),
      'http_req_duration,endpoint=health,expected_response=true,group=::01_login,method=GET,name=GET\\ /health,proto=HTTP/1.1,scenario=default,status=200 url="GET /health",value=0.641012 1795352085629500000',
    );
    assert.equal(
      toLine({ ...sample, metric: 'data_sent', value: 0, tags: { group: '' } }, new Set()),
      'data_sent value=0 1795352085629500000',
    );
    assert.equal(toLine({ ...sample, value: Number.NaN }, new Set()), undefined);
    assert.equal(rfc3339Nano(1795352085629.5), '2026-11-22T12:54:45.6295Z');
  });

  it('v1: creates the database, then writes batches to /write like k6', async () => {
    const server = await stub();
    const out = createInfluxDbV1Output(ctx(`${server.url}/k6db`));
    await out.start();
    out.addSamples([
      sample,
      { ...sample, metric: 'http_reqs', type: 'counter', contains: 'default', value: 1 },
    ]);
    await out.stop();
    await server.close();
    assert.equal(
      new URL(server.received[0]!.url, server.url).searchParams.get('q'),
      'CREATE DATABASE "k6db"',
    );
    const write = server.received.find((r) => r.url.startsWith('/write'))!;
    assert.equal(write.url, '/write?consistency=&db=k6db&precision=ns&rp=');
    assert.equal(write.headers['user-agent'], 'k6');
    assert.equal(write.body.split('\n').length, 2);
    assert.equal(out.description, `InfluxDBv1 (${server.url})`);
  });

  it('v2: writes to /api/v2/write with the token, org and bucket of K6_INFLUXDB_*', async () => {
    const server = await stub();
    const out = createInfluxDbV2Output(
      ctx('', {
        K6_INFLUXDB_ADDR: server.url,
        K6_INFLUXDB_ORGANIZATION: 'org1',
        K6_INFLUXDB_BUCKET: 'b1',
        K6_INFLUXDB_TOKEN: 'tok',
      }),
    );
    await out.start();
    out.addSamples([sample]);
    await out.stop();
    await server.close();
    assert.equal(server.received[0]!.url, '/api/v2/write?bucket=b1&org=org1&precision=ns');
    assert.equal(server.received[0]!.headers.authorization, 'Token tok');
    assert.match(server.received[0]!.body, /^http_req_duration,/);
    assert.throws(
      () => createInfluxDbV2Output(ctx('', { K6_INFLUXDB_ADDR: server.url })),
      /Bucket option is required/,
    );
  });

  it('reports a store that is down or refusing, once, and never throws into the run', async () => {
    const warnings: string[] = [];
    const down = createInfluxDbV1Output(ctx('http://127.0.0.1:1/k6', {}, warnings));
    await down.start();
    down.addSamples([sample]);
    await down.stop();
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /InfluxDBv1 \(http:\/\/127\.0\.0\.1:1\): cannot reach the store/);
    const refusing = await stub(500);
    const warned: string[] = [];
    const out = createInfluxDbV1Output(ctx(`${refusing.url}/k6`, {}, warned));
    await out.start();
    out.addSamples([sample]);
    await out.stop();
    await refusing.close();
    assert.match(warned.join('\n'), /write answered 500/);
  });
});
