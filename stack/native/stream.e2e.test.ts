// stack/native/stream.sh end to end, one target at a time, with the real sandbox under a short run:
// - local, InfluxDB 1.x: a real influxd 1.6 (Debian's), asked its version, written with the v1 API;
// - local, InfluxDB 2.x and cloud: a test double of the v2 write API that checks the exact request
//   xk6-output-influxdb sends (facts from its source and its Go client's, cited at each assertion);
// - cloud with a k6 built with xk6-output-influxdb (LT_XK6_BINARY): that k6 streams, and says so.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestSandbox, TEST_CREDENTIALS } from '../../k6/testing/run-bundle.js';
import type { StartedServer } from '@loadlab/services/start-and-stop';
import { chooseTarget, TargetError } from './influx-target.js';
import { influxQuery, startInfluxd } from '../../devkit/influxdb.js';
import { freePort, type Daemon } from '../../devkit/processes.js';
import { onPath, runCommand } from '../../devkit/command.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHORT = ['--vus', '1', '--duration', '2s'];

interface Streamed {
  code: number | null;
  out: string;
}

/**
 * Runs stack/native/stream.sh with the sandbox's address and credentials, no k6 on PATH but ours. The
 * script runs in the repository, so the summaries go to a temporary LT_RESULTS_DIR, removed after:
 * never into the user's results/.
 */
function stream(args: string[], env: Record<string, string>): Promise<Streamed> {
  const results = mkdtempSync(join(tmpdir(), 'loadlab-stream-results-'));
  return runCommand(join(ROOT, 'stack/native/stream.sh'), args, {
    cwd: ROOT,
    env: { ...process.env, ...TEST_CREDENTIALS, LT_THINK_TIME: '0.1', LT_RESULTS_DIR: results, ...env },
    timeoutMs: 120_000,
  })
    .then(({ code, output }) => ({ code, out: output }))
    .finally(() => rmSync(results, { recursive: true, force: true }));
}

// Line protocol: measurement, escaped tags, fields (quoted strings or numbers), a 19-digit ns time.
const TAG = String.raw`[a-z_]+=(?:\\.|[^, \\])+`;
const FIELD = String.raw`[a-z_]+=(?:"(?:\\.|[^"\\])*"|-?[\d.e+-]+i?)`;
const LINE = new RegExp(`^[a-z_]+(?:,${TAG})* ${FIELD}(?:,${FIELD})* \\d{19}$`);

interface Write {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** An InfluxDB 2.x stand-in: /ping says v2.7.12, /api/v2/write records every request and answers 204. */
async function influxV2Double(): Promise<{ url: string; writes: Write[]; server: Server }> {
  const writes: Write[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/ping') {
        res.writeHead(204, { 'X-Influxdb-Version': 'v2.7.12', 'X-Influxdb-Build': 'OSS' }).end();
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      writes.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, writes, server };
}

/**
 * The request xk6-output-influxdb (github.com/grafana/xk6-output-influxdb at 24889a7, with
 * influxdb-client-go v2.14.0 per its go.mod:8) sends for a batch of samples.
 */
function assertXk6Write(writes: Write[], bucket: string, org: string, token: string, testid: RegExp): void {
  assert.ok(writes.length > 0, 'no write reached the v2 API');
  for (const w of writes) {
    // WritePoint -> WriteBatch -> DoPostRequest (client internal/write/service.go:297-314): a POST.
    assert.equal(w.method, 'POST');
    // Path: ServerAPIURL is <addr>/api/v2/ (client api/http/service.go:67) and the write service
    // parses "write" on it (internal/write/service.go:76-77); query org, bucket and precision set at
    // service.go:79-81 and encoded by Go's url.Values.Encode, keys sorted. Precision: xk6 sets none
    // unless K6_INFLUXDB_PRECISION (pkg/influxdb/output.go:78-80), the client's default is
    // nanoseconds (api/write/options.go:197), written "ns" (service.go:421-431).
    const query = new URLSearchParams({ bucket, org, precision: 'ns' }).toString();
    assert.equal(w.url, `/api/v2/write?${query}`);
    // "Token " + token (client client.go:121-123), set on every request (api/http/service.go:129-130).
    assert.equal(w.headers.authorization, `Token ${token}`);
    // No gzip: useGZip defaults to false (api/write/options.go:197) and the output only sets TLS and
    // precision on the options (pkg/influxdb/output.go:74-80); Content-Encoding is set only when gzip
    // is on (service.go:305-317). Nor does the client set a Content-Type on the POST.
    assert.equal(w.headers['content-encoding'], undefined);
    assert.equal(w.headers['content-type'], undefined);
    // Line protocol: one point per sample, measurement = metric name, the sample's tags as tags
    // (pkg/influxdb/output.go:168-178), tags and fields sorted by key (client api/write/point.go:123-124),
    // `url` moved from tags to a string field by the default TagsAsFields "vu:int,iter:int,url"
    // (pkg/influxdb/config.go:31, output.go:125-148), the value in field `value` (output.go:172), and
    // a nanosecond timestamp.
    for (const line of w.body.split('\n').filter(Boolean)) {
      assert.match(line, LINE, line);
      const head = line.slice(0, line.search(/(?<!\\) /));
      const tagKeys = head!
        .split(',')
        .slice(1)
        .map((t) => t.split('=')[0]!);
      assert.deepEqual(tagKeys, [...tagKeys].sort(), `tags sorted: ${line}`);
    }
  }
  const lines = writes.flatMap((w) => w.body.split('\n').filter(Boolean));
  const request = lines.find((l) => l.startsWith('http_reqs,'));
  assert.ok(request, 'an http_reqs point');
  assert.match(request, testid);
  // k6 sets the url tag to the request's name tag when it has one, as the suite's requests do.
  assert.match(request, / url="[A-Z]+ \/[^"]*",value=1 \d{19}$/);
}

describe('stack/native/stream.sh: every scenario streams to every target', function () {
  this.timeout(300_000);
  let sandbox: StartedServer;
  let noK6Bin = '';

  before(async () => {
    sandbox = await startTestSandbox();
    // A PATH folder with a plain k6 1.3 (no xk6-influxdb output) that fails if it is ever run.
    noK6Bin = mkdtempSync(join(tmpdir(), 'loadlab-plain-k6-'));
    writeFileSync(
      join(noK6Bin, 'k6'),
      '#!/bin/bash\nif [[ $1 == version ]]; then echo "k6 v1.3.0 (go1.24, linux/amd64)"; exit 0; fi\necho "plain k6 must not stream to v2" >&2; exit 9\n',
    );
    chmodSync(join(noK6Bin, 'k6'), 0o755);
  });
  after(async () => {
    await sandbox?.close();
    rmSync(noK6Bin, { recursive: true, force: true });
  });

  describe('local, InfluxDB 1.x (real influxd 1.6)', () => {
    let influx: Daemon | undefined;
    let dataDir = '';
    before(async function () {
      if (!onPath('influxd')) {
        console.warn('      skipped: influxd is not installed (./scripts/setup.sh installs Debian influxdb)');
        this.skip();
      }
      dataDir = mkdtempSync(join(tmpdir(), 'loadlab-influx-stream-'));
      influx = await startInfluxd({ dataDir, httpPort: await freePort(), rpcPort: await freePort() });
    });
    after(async () => {
      await influx?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('a journey streams through the v1 API after asking the server its version', async () => {
      // Credentials in the URL (influxd without auth ignores them) must reach k6, not the terminal.
      const withPassword = influx!.url.replace('://', '://writer:pa55-word@');
      const r = await stream(['local', 'journeys/login-flow', 'smoke', ...SHORT], {
        BASE_URL: sandbox.url,
        LOADLAB_INFLUXDB_LOCAL_URL: `${withPassword}/k6stream`,
        LT_ENGINE: 'node',
      });
      assert.equal(r.code, 0, r.out);
      assert.ok(!r.out.includes('pa55-word'), `the password was printed:\n${r.out}`);
      assert.match(r.out, /to influxdb=http:\/\/writer:\*\*\*@127\.0\.0\.1:\d+\/k6stream/);
      assert.match(
        r.out,
        /stack: InfluxDB 1\.\S+ at http:\/\/127\.0\.0\.1:\d+ speaks the v1 API: database k6stream/,
      );
      assert.match(r.out, /engine: the Node runner/);
      const ids = await influxQuery(
        influx!.url,
        'k6stream',
        'SHOW TAG VALUES FROM "http_reqs" WITH KEY = "testid"',
      );
      const testid = ids[0]?.values.map((row) => String(row[1])).find((id) => id.endsWith('-login-flow'));
      assert.ok(testid, JSON.stringify(ids));
      const flows = await influxQuery(
        influx!.url,
        'k6stream',
        `SELECT count("value") FROM "login_flow_duration" WHERE "testid" = '${testid}'`,
      );
      assert.ok(Number(flows[0]?.values[0]?.[1]) > 0, JSON.stringify(flows));
    });
  });

  describe('local, InfluxDB 2.x (v2 API test double)', () => {
    it('a scenario streams through the v2 API with the stack org, bucket and token, on the Node runner', async () => {
      const influx = await influxV2Double();
      try {
        const r = await stream(['local', 'scenarios/load/api-auth', 'smoke', ...SHORT], {
          BASE_URL: sandbox.url,
          LOADLAB_INFLUXDB_LOCAL_URL: `${influx.url}/k6`,
          INFLUXDB_ORG: 'loadlab-test',
          INFLUXDB_ADMIN_TOKEN: 'local-admin-token',
          PATH: `${noK6Bin}:${process.env.PATH}`,
        });
        assert.equal(r.code, 0, r.out);
        assert.match(
          r.out,
          /InfluxDB v2\.7\.12 at http:\/\/127\.0\.0\.1:\d+ speaks the v2 API: org loadlab-test, bucket k6/,
        );
        assert.match(r.out, /engine: the Node runner \(no k6 with xk6-output-influxdb/);
        assertXk6Write(
          influx.writes,
          'k6',
          'loadlab-test',
          'local-admin-token',
          /,testid=\d{8}T\d{6}Z-api-auth[, ]/,
        );
      } finally {
        influx.server.close();
      }
    });

    it('refuses LT_ENGINE=k6 in one line: plain k6 has no v2 output', async () => {
      const influx = await influxV2Double();
      try {
        const r = await stream(['local', 'scenarios/smoke/api-health'], {
          LOADLAB_INFLUXDB_LOCAL_URL: `${influx.url}/k6`,
          INFLUXDB_ADMIN_TOKEN: 't',
          LT_ENGINE: 'k6',
          PATH: `${noK6Bin}:${process.env.PATH}`,
        });
        assert.equal(r.code, 2, r.out);
        assert.match(r.out, /LT_ENGINE=k6 cannot stream to the v2 API .* LT_XK6_BINARY/);
        assert.deepEqual(influx.writes, []);
      } finally {
        influx.server.close();
      }
    });
  });

  describe('cloud (v2 API test double)', () => {
    const cloudEnv = (url: string) => ({
      K6_INFLUXDB_ADDR: url,
      K6_INFLUXDB_ORGANIZATION: 'cloud-org',
      K6_INFLUXDB_BUCKET: 'cloud-bucket',
      K6_INFLUXDB_TOKEN: 'cloud-token',
    });

    it('without an xk6 k6 the Node runner streams, and says so', async () => {
      const influx = await influxV2Double();
      try {
        const r = await stream(['cloud', 'scenarios/spike/api-spike', 'smoke', ...SHORT], {
          BASE_URL: sandbox.url,
          ...cloudEnv(influx.url),
          PATH: `${noK6Bin}:${process.env.PATH}`,
        });
        assert.equal(r.code, 0, r.out);
        assert.match(r.out, /to xk6-influxdb; engine: the Node runner/);
        assertXk6Write(
          influx.writes,
          'cloud-bucket',
          'cloud-org',
          'cloud-token',
          /,testid=\d{8}T\d{6}Z-api-spike[, ]/,
        );
      } finally {
        influx.server.close();
      }
    });

    it('a k6 built with xk6-output-influxdb (LT_XK6_BINARY) streams instead, and says so', async () => {
      const bin = mkdtempSync(join(tmpdir(), 'loadlab-xk6-'));
      const xk6 = join(bin, 'k6-custom');
      writeFileSync(
        xk6,
        [
          '#!/bin/bash',
          'if [[ $1 == version ]]; then',
          '  echo "k6 v1.3.0 (go1.24, linux/amd64)"',
          '  echo "Extensions:"',
          '  echo "  github.com/grafana/xk6-output-influxdb v0.7.0, xk6-influxdb [output]"',
          '  exit 0',
          'fi',
          'echo "xk6-args: $* addr=$K6_INFLUXDB_ADDR bucket=$K6_INFLUXDB_BUCKET"',
        ].join('\n'),
      );
      chmodSync(xk6, 0o755);
      try {
        const r = await stream(['cloud', 'journeys/authenticated-user', 'load', '--vus', '3'], {
          ...cloudEnv('https://cloud.example.invalid'),
          LT_XK6_BINARY: xk6,
          PATH: `${noK6Bin}:${process.env.PATH}`,
        });
        assert.equal(r.code, 0, r.out);
        assert.match(r.out, new RegExp(`engine: real k6 with xk6-output-influxdb \\(${xk6}\\)`));
        assert.match(r.out, /run-k6: engine k6/);
        assert.match(
          r.out,
          /xk6-args: run dist\/k6\/journeys\/authenticated-user\.js --tag testid=\S+-authenticated-user -o xk6-influxdb --vus 3 addr=https:\/\/cloud\.example\.invalid bucket=cloud-bucket/,
        );
      } finally {
        rmSync(bin, { recursive: true, force: true });
      }
    });

    it('an LT_XK6_BINARY without the output is refused in one line', async () => {
      const r = await stream(['cloud', 'scenarios/smoke/api-health'], {
        ...cloudEnv('https://cloud.example.invalid'),
        LT_XK6_BINARY: join(noK6Bin, 'k6'),
      });
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, /has no xk6-influxdb output/);
    });
  });

  it('refuses a scenario that does not exist, naming what to pass', async () => {
    const r = await stream(['local', 'scenarios/load/nope'], {});
    assert.equal(r.code, 2);
    assert.match(r.out, /no scenario k6\/scenarios\/load\/nope\.ts/);
  });
});

describe('stack/native/influx-target.ts: the write API follows the server version', () => {
  it('1.x: the v1 output on the database of the URL path', () => {
    const t = chooseTarget('http://127.0.0.1:8086/k6', '1.6.7~rc0', {});
    assert.equal(t.output, 'influxdb=http://127.0.0.1:8086/k6');
    assert.deepEqual(t.env, {});
    // Credentials and k6's URL options go through; no path means k6's default database.
    assert.equal(
      chooseTarget('http://u:p@127.0.0.1:8086/db1?pushInterval=5s', '1.8.10', {}).output,
      'influxdb=http://u:p@127.0.0.1:8086/db1?pushInterval=5s',
    );
    assert.equal(
      chooseTarget('http://127.0.0.1:8086', '1.8.10', {}).output,
      'influxdb=http://127.0.0.1:8086/k6',
    );
  });

  it('2.x (with or without the v): xk6-influxdb with the compose org, bucket and admin token', () => {
    for (const version of ['v2.7.12', '2.7.1']) {
      const t = chooseTarget('http://127.0.0.1:8086/k6', version, {
        INFLUXDB_ORG: 'o',
        INFLUXDB_ADMIN_TOKEN: 'tok',
      });
      assert.equal(t.output, 'xk6-influxdb');
      assert.deepEqual(t.env, {
        K6_INFLUXDB_ADDR: 'http://127.0.0.1:8086',
        K6_INFLUXDB_ORGANIZATION: 'o',
        K6_INFLUXDB_BUCKET: 'k6',
        K6_INFLUXDB_TOKEN: 'tok',
      });
    }
  });

  it('2.x without a token, or another major version: one line and a non-zero code', () => {
    for (const token of [undefined, '', '<random-token>'])
      assert.throws(
        () => chooseTarget('http://h:8086/k6', 'v2.7.12', { INFLUXDB_ADMIN_TOKEN: token }),
        (e: TargetError) => e.exitCode === 2 && /needs a token: set INFLUXDB_ADMIN_TOKEN/.test(e.message),
      );
    assert.throws(
      () => chooseTarget('http://h:8086/k6', '3.0.0', {}),
      (e: TargetError) => e.exitCode === 2 && /only 1\.x and 2\.x/.test(e.message),
    );
  });
});
