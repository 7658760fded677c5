import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bareRequest, HttpEngine } from './http-engine.js';
import type { IdleLimits } from './go-connection-pool.js';

/** A loopback target that answers with the client port the request came from. */
async function portEcho(): Promise<{ url: string; close(): void }> {
  const server = http.createServer((req, res) => res.end(String(req.socket.remotePort)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => server.close(),
  };
}

const get = (url: string) => bareRequest('GET', url);

/** The client port each request went out on, one request after another. */
async function portsOf(engine: HttpEngine, urls: string[]): Promise<string[]> {
  const ports: string[] = [];
  for (const url of urls) ports.push(String((await engine.request(get(url))).hops[0]!.body));
  return ports;
}

describe('runner/host/go-connection-pool: the connection a request goes out on, as Go picks it', () => {
  const targets: { url: string; close(): void }[] = [];
  const engines: HttpEngine[] = [];
  const engine = (idleLimits?: IdleLimits) => {
    const made = new HttpEngine({ idleLimits });
    engines.push(made);
    return made;
  };
  before(async () => {
    targets.push(await portEcho(), await portEcho());
  });
  after(async () => {
    await Promise.all(engines.map((e) => e.close()));
    for (const t of targets) t.close();
  });

  it('requests made the moment the last answer is in go out on its connection', async () => {
    // undici's Pool took that connection again only an event-loop turn later: two connections took turns.
    const ports = await portsOf(engine(), Array(10).fill(targets[0]!.url));
    assert.equal(new Set(ports).size, 1, ports.join(' '));
  });

  it('maxIdle closes the connection idle longest, whatever its host', async () => {
    const [a, b] = [targets[0]!.url, targets[1]!.url];
    const one = await portsOf(engine({ maxIdle: 1, maxIdlePerHost: 6 }), [a, b, a]);
    assert.notEqual(one[2], one[0], 'with one idle connection allowed, b closed a');
    const two = await portsOf(engine({ maxIdle: 2, maxIdlePerHost: 6 }), [a, b, a]);
    assert.equal(two[2], two[0], 'with two, a waited');
  });

  it("maxIdlePerHost 0 keeps Go's default of 2 per host; a negative value keeps none", async () => {
    const url = targets[0]!.url;
    const batch = async (limits: IdleLimits) => {
      const vu = engine(limits);
      const first = await Promise.all(Array.from({ length: 4 }, () => vu.request(get(url))));
      const again = await portsOf(vu, [url]);
      return first.map((r) => String(r.hops[0]!.body)).includes(again[0]!);
    };
    assert.equal(await batch({ maxIdle: 0, maxIdlePerHost: 0 }), true);
    assert.equal(await batch({ maxIdle: 0, maxIdlePerHost: -1 }), false);
  });
});
