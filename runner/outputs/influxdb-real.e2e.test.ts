import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { influxQuery, startInfluxd } from '../../devkit/influxdb.js';
import { freePort, type Daemon } from '../../devkit/processes.js';
import { createInfluxDbV1Output } from './influxdb.js';

// Integration: the v1 output against a real influxd 1.6 on loopback with a temp data dir.
describe('runner outputs: real InfluxDB 1.6', function () {
  this.timeout(60_000);
  let daemon: Daemon | undefined;
  let dir = '';

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), 'loadlab-influx-'));
    daemon = await startInfluxd({ dataDir: dir, httpPort: await freePort(), rpcPort: await freePort() });
  });
  after(async () => {
    await daemon?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the database and a query finds the points with their tags and url field', async () => {
    const warnings: string[] = [];
    const out = createInfluxDbV1Output({
      scriptPath: 'x.js',
      options: {},
      argument: `${daemon!.url}/k6test`,
      env: {},
      warn: (m) => warnings.push(m),
    });
    await out.start();
    const t0 = Date.now();
    out.addSamples(
      [1, 2, 3].map((i) => ({
        metric: 'http_req_duration',
        type: 'trend' as const,
        contains: 'time' as const,
        value: i * 10,
        tags: { method: 'GET', status: '200', url: 'http://127.0.0.1/x', scenario: 'default' },
        time: t0 + i,
      })),
    );
    await out.stop();
    assert.deepEqual(warnings, []);
    const series = await influxQuery(
      daemon!.url,
      'k6test',
      'SELECT value, url, status FROM http_req_duration',
    );
    assert.equal(series.length, 1);
    const values = series[0]!.values.map((row) => row.slice(1));
    assert.deepEqual(values, [
      [10, 'http://127.0.0.1/x', '200'],
      [20, 'http://127.0.0.1/x', '200'],
      [30, 'http://127.0.0.1/x', '200'],
    ]);
  });
});
