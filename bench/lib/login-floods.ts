// Password floods on the secured clinic and the time a valid user's first login (not yet cached)
// takes meanwhile, for bench:auth. The floods: pipelined wrong passwords closed at
// once, many connections that send one and leave, and a sustained flood that stays connected.
// Every flood is bounded in count and time; traffic goes to loopback only.
import autocannon from 'autocannon';
import { connect } from 'node:net';

export const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

const request = (path: string, auth: string) =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth}\r\n\r\n`;

/** Writes `bytes` on a new connection and closes it once written, reading nothing. */
function sendAndLeave(port: number, bytes: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(bytes, () => (socket.destroy(), resolve())));
    socket.on('error', () => resolve());
  });
}

export interface Flood {
  name: string;
  /** Starts the flood; resolves when it has been sent (or, for a sustained one, when it ends). */
  start(): Promise<void>;
}

/** The three wrong-password floods against `path` on `port`, as wrong passwords for `user`. */
export function floods(
  port: number,
  path: string,
  user: string,
  seconds: number,
  connections: number,
): Flood[] {
  const wrong = (i: number) => basic(user, `wrong-${i}`);
  return [
    {
      name: '1,000 pipelined on 2 connections, closed',
      start: () =>
        Promise.all(
          [0, 1].map((c) =>
            sendAndLeave(
              port,
              Array.from({ length: 500 }, (_, i) => request(path, wrong(c * 500 + i))).join(''),
            ),
          ),
        ).then(() => {}),
    },
    {
      name: '1,000 connections sending one and leaving',
      start: async () => {
        for (let batch = 0; batch < 10; batch++)
          await Promise.all(
            Array.from({ length: 100 }, (_, i) => sendAndLeave(port, request(path, wrong(batch * 100 + i)))),
          );
      },
    },
    {
      name: `${connections} connections for ${seconds} s, staying`,
      start: () =>
        new Promise<void>((resolve, reject) => {
          let n = 0;
          autocannon(
            {
              url: `http://127.0.0.1:${port}${path}`,
              connections,
              duration: seconds,
              // A new wrong password on every request: no two checks can be shared.
              requests: [{ setupRequest: (req) => ({ ...req, headers: { authorization: wrong(n++) } }) }],
            },
            (error) => (error ? reject(error) : resolve()),
          );
        }),
    },
  ];
}

/** How long one login may take before the bench counts it as unanswered (and moves on). */
export const LOGIN_TIMEOUT_MS = 30_000;

/** Milliseconds until a login answers, and its status (0: no answer within LOGIN_TIMEOUT_MS). */
export async function timedLogin(
  url: string,
  user: string,
  password: string,
): Promise<{ ms: number; status: number }> {
  const start = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - start) / 1e6;
  try {
    const res = await fetch(url, {
      headers: { authorization: basic(user, password) },
      signal: AbortSignal.timeout(LOGIN_TIMEOUT_MS),
    });
    await res.arrayBuffer();
    return { ms: elapsed(), status: res.status };
  } catch {
    return { ms: elapsed(), status: 0 };
  }
}
