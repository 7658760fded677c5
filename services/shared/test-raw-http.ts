// Test helper: raw bytes over TCP, for requests an HTTP client would normalise or refuse to send
// (`/web/../x`, a lying Content-Length, invalid HTTP).
import { connect } from 'node:net';

/** Sends the bytes and resolves with everything the server wrote until it closed the connection. */
export function rawExchange(url: string, bytes: string, timeoutMs = 5000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new Error(`no complete answer within ${timeoutMs} ms`)),
    );
  });
}

/** Status code and parsed body of the first response in a raw exchange. */
export function firstResponse(raw: string): { status: number; headers: string; body: string } {
  const [headers = '', body = ''] = raw.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1] ?? 0), headers, body };
}
