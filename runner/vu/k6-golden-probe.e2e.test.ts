// Conformance with real k6 v1.3: the reference probe script (k6-golden/probe.js) run on a VU must log
// what k6 logged (k6-golden/probe_output.txt), modulo the port, the Date header and timing values.
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { parseNdjson } from '@loadlab/k6-format/ndjson';
import type { AddressInfo } from 'node:net';
import { ctx, makeVu, type Harness } from './test-support.js';
import { K6_GOLDEN } from '../../devkit/k6-reference.js';

const GOLDEN = K6_GOLDEN;

/** The routes of k6-golden/server.js that probe.js uses. */
function probeServer(): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const u = new URL(req.url ?? '/', 'http://x');
      if (u.pathname === '/ok') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'X-Multi': ['a', 'b'] });
        res.end(JSON.stringify({ ok: true, n: 1, items: [{ id: 7 }] }));
      } else if (u.pathname === '/slow') {
        setTimeout(
          () => {
            res.writeHead(200);
            res.end('slow');
          },
          Number(u.searchParams.get('ms') ?? 100),
        );
      } else if (u.pathname === '/notfound') {
        res.writeHead(404);
        res.end('nope');
      } else if (u.pathname === '/err') {
        res.writeHead(500);
        res.end('boom');
      } else if (u.pathname === '/redirect') {
        res.writeHead(302, { Location: '/ok' });
        res.end();
      } else if (u.pathname === '/login' && req.method === 'GET') {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<html><body><form method="POST" action="/login"><input name="login"/></form></body></html>');
      } else if (u.pathname === '/login' && req.method === 'POST') {
        res.writeHead(200, { 'Content-Type': 'text/html', 'Set-Cookie': 'sid=abc; Path=/' });
        res.end('<h2>Welcome, admin!</h2>');
      } else if (u.pathname === '/echo') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
      } else {
        res.writeHead(200);
        res.end('default');
      }
    });
  });
}

/** `info msg="..." source=console` -> [level, message]. */
function parseGolden(line: string): [string, string] {
  const m = /^(\w+) msg="((?:[^"\\]|\\.)*)"/.exec(line);
  assert.ok(m, line);
  return [m[1]!, JSON.parse(`"${m[2]!}"`) as string];
}

function normalize(s: string, port: string): string {
  return s
    .replaceAll(`:${port}`, ':PORT')
    .replace(/"Date":"[^"]*"/, '"Date":"DATE"')
    .replace(
      /"(duration|blocked|connecting|sending|waiting|receiving)":[0-9.e-]+/g,
      (_m, k: string) => `"${k}":N`,
    );
}

describe('runner/vu conformance with k6 (k6-golden probe.js, s1.js)', function () {
  let server: http.Server;
  let h: Harness | undefined;
  after(async () => {
    await h?.vu.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  before(async () => {
    server = probeServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });

  it('logs the same Response, errors, batch, callbacks, check, group and k6/execution values as k6', async () => {
    const port = String((server.address() as AddressInfo).port);
    const code = readFileSync(`${GOLDEN}/probe.js`, 'utf8').replace('127.0.0.1:18080', `127.0.0.1:${port}`);
    h = await makeVu(code, { env: { FOO: 'baz' } });
    await h.vu.init();
    const c = ctx();
    c.testOptions = JSON.parse(
      '{"scenarios":{"default":{"executor":"shared-iterations","startTime":null,"gracefulStop":null,"env":null,"exec":null,"tags":null,"vus":null,"iterations":1,"maxDuration":null}},"summaryTrendStats":["avg","min","med","max","p(90)","p(95)"]}',
    ) as Record<string, unknown>;
    const res = await h.vu.iterate('default', undefined, c);
    assert.equal(res.error, undefined);

    const rawGolden = readFileSync(`${GOLDEN}/probe_output.txt`, 'utf8').trim().split('\n');
    const golden = rawGolden.map(parseGolden);
    const ours = h.logs.map((l) => [l.level === 'warn' ? 'warning' : l.level, l.message] as [string, string]);
    assert.equal(ours.length, golden.length, ours.map((o) => o[1].slice(0, 40)).join('\n'));
    for (let i = 0; i < golden.length; i++) {
      const [gl, gm] = golden[i]!;
      const [ol, om] = ours[i]!;
      assert.equal(ol, gl, `level of line ${i}`);
      if (gm === 'Request Failed') {
        // k6 puts Go's error in a field of its own (logfmt-quoted in the golden line), as the runner does.
        const field = / error="((?:[^"\\]|\\.)*)"/.exec(rawGolden[i]!)![1]!;
        assert.equal(om, 'Request Failed');
        assert.deepEqual(h.logs[i]!.fields, { error: JSON.parse(`"${field.replaceAll('18080', port)}"`) });
        continue;
      }
      if (gm.startsWith('POST')) {
        // Request headers as the server saw them: undici adds `connection: keep-alive` (Go sends none).
        const [tag, json] = [gm.slice(0, gm.indexOf(' ')), gm.slice(gm.indexOf(' ') + 1)];
        const parse = (s: string) => {
          const o = JSON.parse(normalize(s, port)) as { headers: Record<string, string> };
          delete o.headers.connection;
          return o;
        };
        assert.ok(om.startsWith(`${tag} `), om);
        assert.deepEqual(parse(om.slice(tag.length + 1)), parse(json.replace('18080', port)));
        continue;
      }
      assert.equal(normalize(om, port), normalize(gm.replaceAll('18080', port), port), `line ${i}`);
    }
  });

  it('emits the same metrics (type, contains) and tag sets as k6 for k6-golden/s1.js (samples_s1.jsonl)', async () => {
    const port = String((server.address() as AddressInfo).port);
    const code = readFileSync(`${GOLDEN}/s1.js`, 'utf8').replace('127.0.0.1:18080', `127.0.0.1:${port}`);
    const setupVu = await makeVu(code, { vuId: 0 });
    const vu = await makeVu(code, { vuId: 1 });
    try {
      await setupVu.vu.init();
      await vu.vu.init();
      const data = await setupVu.vu.runSetup({});
      const c = ctx({ name: 'main', executor: 'per-vu-iterations', tags: { sc: 'one' } });
      assert.deepEqual(await vu.vu.iterate('default', data, c), { completed: true });
      await setupVu.vu.runTeardown(data, {});
      const key = (metric: string, tags: Record<string, string>) =>
        `${metric} ${JSON.stringify(Object.fromEntries(Object.entries(tags).sort(([a], [b]) => (a < b ? -1 : 1))))}`;
      const want = new Set<string>();
      const kinds = new Map<string, string>();
      for (const p of parseNdjson(
        readFileSync(`${GOLDEN}/samples_s1.jsonl`, 'utf8').replaceAll('18080', port),
      )) {
        if (p.type === 'Metric') kinds.set(p.metric, `${p.data.type}/${p.data.contains}`);
        else if (p.metric !== 'vus' && p.metric !== 'vus_max') want.add(key(p.metric, p.data.tags ?? {}));
      }
      const samples = [...setupVu.samples, ...vu.samples];
      // samples_s1.jsonl is the head of the run: it ends before teardown (k6.md 4.1 documents ::teardown).
      const got = new Set(
        samples.filter((s) => s.tags.group !== '::teardown').map((s) => key(s.metric, s.tags)),
      );
      assert.deepEqual([...got].sort(), [...want].sort());
      for (const s of samples) assert.equal(`${s.type}/${s.contains}`, kinds.get(s.metric), s.metric);
    } finally {
      await setupVu.vu.close();
      await vu.vu.close();
    }
  });
});
