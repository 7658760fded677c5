// stack:verify's command line: its flags, its configuration from .env, its lines and step summary.
import assert from 'node:assert/strict';
import { configFrom, line, markdown, parseArgs, UsageError } from './cli.js';

describe('stack:verify command line', () => {
  it('takes --screenshots with an optional folder; stack:screenshots takes a folder', () => {
    assert.deepEqual(parseArgs([], false), { checks: true });
    assert.deepEqual(parseArgs(['--screenshots'], false), {
      checks: true,
      screenshotsDir: 'results/stack/screenshots',
    });
    assert.deepEqual(parseArgs(['--screenshots', 'out'], false), { checks: true, screenshotsDir: 'out' });
    assert.deepEqual(parseArgs([], true), { checks: false, screenshotsDir: 'results/stack/screenshots' });
    assert.throws(() => parseArgs(['--nope'], false), UsageError);
    assert.deepEqual(parseArgs(['--cloud', 'id-1'], false), { checks: false, cloudTestid: 'id-1' });
    assert.throws(() => parseArgs(['--cloud'], false), /usage: stack:verify --cloud <testid>/);
    assert.throws(() => parseArgs(['--cloud', 'x', '--screenshots'], false), /and nothing else/);
    assert.throws(() => parseArgs(['-x'], true), /usage: stack:screenshots/);
  });

  it('names every missing secret in one line; the rest defaults to what compose publishes', () => {
    assert.throws(() => configFrom({}, '/r'), /GRAFANA_ADMIN_PASSWORD and INFLUXDB_ADMIN_TOKEN not set/);
    const config = configFrom({ GRAFANA_ADMIN_PASSWORD: 'p', INFLUXDB_ADMIN_TOKEN: 't' }, '/r');
    assert.equal(config.grafana.url, 'http://127.0.0.1:3000');
    assert.equal(config.grafana.authorization, `Basic ${Buffer.from('admin:p').toString('base64')}`);
    assert.deepEqual(config.influx, {
      url: 'http://127.0.0.1:8086',
      token: 't',
      org: 'loadlab',
      bucket: 'k6',
    });
    assert.equal(config.prometheusUrl, 'http://127.0.0.1:9090');
  });

  it('one line per check, and a Markdown table for the step summary', () => {
    assert.equal(line({ name: 'a', ok: true, detail: 'fine' }), 'ok   a: fine');
    assert.equal(line({ name: 'b', ok: false, detail: 'x' }), 'FAIL b: x');
    const md = markdown([
      { name: 'a', ok: true, detail: 'p|q' },
      { name: 'b', ok: false, detail: 'x' },
    ]);
    assert.match(md, /^### stack:verify: 1 of 2 checks failed/);
    assert.match(md, /\| ✅ \| a \| p\\\|q \|/);
    assert.doesNotMatch(md, /Screenshots/, 'no screenshot list without screenshots');
  });

  it("the step summary names each dashboard's screenshot, and says which were not taken", () => {
    const md = markdown([
      { name: 'grafana health', ok: true, detail: 'ok' },
      {
        name: 'screenshot loadlab-k6',
        ok: true,
        detail: 'x',
        file: '/r/results/stack/screenshots/loadlab-k6.png',
      },
      {
        name: 'screenshot loadlab-services',
        ok: false,
        detail: 'Requests: No data',
        file: '/r/s/loadlab-services.png',
      },
      { name: 'screenshot loadlab-other', ok: false, detail: 'not settled after 90 s: ...' },
    ]);
    const list = md.slice(md.indexOf('#### Screenshots (artifact `stack-screenshots`)'));
    assert.deepEqual(list.trim().split('\n').slice(2), [
      '- ✅ `loadlab-k6.png`',
      '- ❌ `loadlab-services.png`',
      '- ❌ screenshot loadlab-other: not taken',
    ]);
    assert.match(md, /\| ✅ \| grafana health \| ok \|/);
  });
});
