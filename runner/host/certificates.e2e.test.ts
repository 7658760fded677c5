// Certificates k6 refuses, in its codes and Go's words: a self-signed one is 1310
// `x509: unknown authority`, one for another name 1311 (Go checks the names before the chain),
// each "Request Failed" line with Go's full text; a CA the system trusts (SSL_CERT_FILE) is trusted,
// as Go's roots are the system's. Both engines against loopback HTTPS servers.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertSameRunLines, realK6OrSkip, runLogLines } from '../testing/log-lines.js';
import { selfSigned, signedByLocalCa } from '../testing/self-signed.js';

describe('runner/host refused certificates on real k6 and the runner', function () {
  this.timeout(60_000);

  it('a self-signed certificate is 1310, one for another name 1311, in Go words', async function () {
    realK6OrSkip(this);
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-certs-'));
    const servers = await Promise.all(
      [
        await selfSigned(dir, 'loopback', 'DNS:localhost,IP:127.0.0.1'),
        await selfSigned(dir, 'other', 'DNS:other.example'),
      ].map(async (tls) => {
        const server = https.createServer(tls, (_req, res) => res.end('secure'));
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
        return server;
      }),
    );
    const hosts = servers.map((s) => `127.0.0.1:${(s.address() as AddressInfo).port}`);
    try {
      await assertSameRunLines(
        'runner/host/fixtures/certificates.js',
        ['-e', `HOSTS=${hosts.join(',')}`],
        'code=1311',
        (l) => hosts.reduce((line, h, i) => line.replaceAll(h, `HOST${i}`), l),
      );
    } finally {
      for (const s of servers) {
        s.closeAllConnections();
        s.close();
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('trusts a local CA the system trusts (SSL_CERT_FILE), as Go does', async function () {
    realK6OrSkip(this);
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-ca-'));
    const { caFile, ...tls } = await signedByLocalCa(dir, 'IP:127.0.0.1');
    const server = https.createServer(tls, (_req, res) => res.end('secure'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const on = (engine: 'k6' | 'node') =>
        runLogLines(engine, 'runner/host/fixtures/certificates.js', ['-e', `HOSTS=${host}`], {
          SSL_CERT_FILE: caFile,
        });
      const k6 = await on('k6');
      assert.deepEqual(k6.lines, ['level=info msg="status=200 code=0 error=" source=console']);
      assert.deepEqual(await on('node'), k6);
    } finally {
      server.closeAllConnections();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
