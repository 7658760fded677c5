// An InfluxDB v1 stand-in on a free loopback port that keeps what each database was sent: k6's
// `-o influxdb=URL/db` creates the database through /query, then posts line protocol to /write.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface InfluxCapture {
  /** `-o influxdb=` URL for a database of this name. */
  urlFor(db: string): string;
  /** Line protocol written to a database so far. */
  lines(db: string): string;
  close(): Promise<void>;
}

export async function startInfluxCapture(): Promise<InfluxCapture> {
  const received = new Map<string, string[]>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (url.pathname === '/write') {
        const db = url.searchParams.get('db') ?? '';
        received.set(db, [...(received.get(db) ?? []), body]);
        res.writeHead(204).end();
      } else if (url.pathname === '/query') {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"results":[{"statement_id":0}]}');
      } else res.writeHead(url.pathname === '/ping' ? 204 : 404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    urlFor: (db) => `${base}/${db}`,
    lines: (db) => (received.get(db) ?? []).join('\n'),
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
