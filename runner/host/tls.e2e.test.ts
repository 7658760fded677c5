import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { selfSigned } from '../testing/self-signed.js';
import { ctx, makeVu, type Harness } from '../vu/test-support.js';

describe('runner/vu over HTTPS (self-signed certificate made by openssl)', function () {
  let server: https.Server;
  let base = '';
  let dir = '';
  const open: Harness[] = [];
  before(async function () {
    dir = mkdtempSync(path.join(tmpdir(), 'loadlab-tls-'));
    const tls = await selfSigned(dir, '127.0.0.1');
    server = https.createServer(tls, (_req, res) => res.end('secure'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const h of open) await h.vu.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('times TCP connect and TLS handshake apart and tags tls_version (insecureSkipTLSVerify)', async () => {
    const h = await makeVu(
      `import http from 'k6/http';
      export default function () { const r = http.get(__ENV.BASE + '/'); http.get(__ENV.BASE + '/'); console.log(r.body, r.tls_version); }`,
      { env: { BASE: base }, insecureSkipTLSVerify: true },
    );
    open.push(h);
    await h.vu.init();
    await h.vu.iterate('default', undefined, ctx());
    assert.deepEqual(
      h.logs.map((l) => l.message),
      ['secure tls1.3'],
    );
    const tlsTimes = h.samples.filter((s) => s.metric === 'http_req_tls_handshaking').map((s) => s.value);
    assert.ok(tlsTimes[0]! > 0, 'first request did the handshake');
    assert.equal(tlsTimes[1], 0, 'second reused the connection');
    assert.equal(h.samples.find((s) => s.metric === 'http_reqs')!.tags.tls_version, 'tls1.3');
    const blocked = h.samples.find((s) => s.metric === 'http_req_blocked')!.value;
    const connecting = h.samples.find((s) => s.metric === 'http_req_connecting')!.value;
    assert.ok(blocked >= connecting + tlsTimes[0]!, 'blocked covers connect + handshake');
  });

  it('refuses the self-signed certificate without insecureSkipTLSVerify (status 0, TLS error code)', async () => {
    const h = await makeVu(
      `import http from 'k6/http';
      export default function () { const r = http.get(__ENV.BASE + '/'); console.log(r.status, r.error_code); }`,
      { env: { BASE: base } },
    );
    open.push(h);
    await h.vu.init();
    await h.vu.iterate('default', undefined, ctx());
    const info = h.logs.find((l) => l.level === 'info')!;
    const [status, code] = info.message.split(' ').map(Number);
    assert.equal(status, 0);
    assert.ok(code! >= 1300 && code! < 1400, `TLS error code, got ${code}`);
  });
});
