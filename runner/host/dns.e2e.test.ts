// Host names resolved as k6 resolves them: a name a local DNS server answers is
// reached, a lookup the server never answers fails each request at its own timeout (1050), not
// after getaddrinfo's 10 s, four at a time, as Node's dns.lookup on libuv's pool did, and a name the
// server does not know fails in Go's words. The engines
// run in a private mount namespace whose /etc/resolv.conf names a DNS server this test runs on
// 127.0.0.1:53 (so the test needs root and a network namespace of its own, as the suite runs).
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../../devkit/command.js';
import { REPO } from '../../devkit/loadlab-run.js';
import { realK6OrSkip } from '../testing/log-lines.js';

/** A DNS answer to `query`: A records for `target.example.test`, none for other names of a kind. */
function answer(query: Buffer): Buffer | undefined {
  let at = 12;
  const labels: string[] = [];
  while (query[at]! > 0) {
    labels.push(query.subarray(at + 1, at + 1 + query[at]!).toString());
    at += query[at]! + 1;
  }
  const name = labels.join('.').toLowerCase();
  if (name === 'silent.example.test') return undefined;
  const type = query.readUInt16BE(at + 1);
  const question = query.subarray(12, at + 5);
  const found = name === 'target.example.test' && type === 1;
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  // A response, recursion available; NXDOMAIN for names it does not serve.
  header.writeUInt16BE(name === 'target.example.test' ? 0x8180 : 0x8183, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(found ? 1 : 0, 6);
  const record = Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 127, 0, 0, 1]);
  return Buffer.concat([header, question, ...(found ? [record] : [])]);
}

interface Ended {
  code: number | null;
  lines: string[];
  requests: number;
}

async function runIn(
  resolvConf: string,
  command: string[],
  port: number,
  fixture = 'runner/host/fixtures/dns-names.js',
): Promise<Ended> {
  const run = await runCommand(
    'unshare',
    [
      '-m',
      'sh',
      '-c',
      `mount --bind ${resolvConf} /etc/resolv.conf && exec "$@"`,
      'sh',
      ...command,
      'run',
      '-e',
      `PORT=${port}`,
      fixture,
    ],
    { cwd: REPO, env: { HOME: process.env.HOME ?? '/tmp' }, timeoutMs: 60_000 },
  );
  const lines = run.stderr
    .split('\n')
    .filter((l) => l.startsWith('time='))
    .map((l) => l.replace(/^time="[^"]*" /, '').replaceAll(String(port), 'PORT'));
  return {
    code: run.code,
    lines: [...new Set(lines)].sort(),
    requests: Number(/http_reqs\.*: (\d+)/.exec(run.stdout)?.[1]),
  };
}

describe('runner/host name resolution on real k6 and the runner', function () {
  this.timeout(120_000);

  let k6: string[];
  let dns: dgram.Socket;
  let target: Server;
  let port: number;
  let dir: string;
  let resolvConf: string;

  before(async function () {
    k6 = realK6OrSkip(this);
    if (process.getuid?.() !== 0) {
      console.warn('      skipped: needs root (a mount namespace for /etc/resolv.conf)');
      this.skip();
    }
    dns = dgram.createSocket('udp4');
    dns.on('message', (query, peer) => {
      const reply = answer(query);
      if (reply) dns.send(reply, peer.port, peer.address);
    });
    try {
      await new Promise<void>((resolve, reject) => {
        dns.once('error', reject);
        dns.bind(53, '127.0.0.1', resolve);
      });
    } catch (error) {
      console.warn(
        `      skipped: port 53 is taken here (${(error as Error).message}): run in a network namespace`,
      );
      dns.close();
      this.skip();
    }
    target = createServer((_req, res) => res.end('served'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    port = (target.address() as AddressInfo).port;
    dir = mkdtempSync(join(tmpdir(), 'loadlab-dns-'));
    resolvConf = join(dir, 'resolv.conf');
    writeFileSync(resolvConf, 'nameserver 127.0.0.1\n');
  });

  after(() => {
    dns?.close();
    target?.closeAllConnections();
    target?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reaches a name a local DNS server serves; a lookup never answered fails at the request timeout', async function () {
    const onK6 = await runIn(resolvConf, k6, port);
    const onRunner = await runIn(resolvConf, [process.execPath, 'bin/loadlab.js'], port);
    assert.equal(onK6.code, 0);
    assert.ok(
      onK6.lines.some((l) => l.includes('served status=200 remote_ip=127.0.0.1')),
      onK6.lines.join('\n'),
    );
    // 8 VUs for 5 s, each request failing at its 2 s timeout: three each (the third ends in gracefulStop).
    assert.equal(onK6.requests, 8 * 3 + 1);
    assert.deepEqual(onRunner, onK6);
  });

  it("fixtures/dns-unknown.js: a name the server does not know is Go's no such host, naming the server", async function () {
    const fixture = 'runner/host/fixtures/dns-unknown.js';
    const onK6 = await runIn(resolvConf, k6, port, fixture);
    assert.ok(
      onK6.lines.some((l) => l.includes('lookup nosuch.example.test on 127.0.0.1:53: no such host')),
      onK6.lines.join('\n'),
    );
    assert.deepEqual(await runIn(resolvConf, [process.execPath, 'bin/loadlab.js'], port, fixture), onK6);
  });
});
