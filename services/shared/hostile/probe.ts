// Sends hostile requests (corpus.ts) as raw bytes, each on its own connection with a deadline, and
// judges the answers by the rules every service promises on bad input: never a 5xx, never silence,
// and a JSON or problem+json body on every 4xx.
import { connect } from 'node:net';
import type { HostileRequest } from './corpus.js';

export interface Outcome {
  request: HostileRequest;
  status?: number;
  contentType?: string;
  body?: string;
  /** No answer before the deadline. */
  hung?: boolean;
  /** The connection ended (or was reset) before any answer. */
  silent?: boolean;
}

function bytesOf(request: HostileRequest, host: string, extraHeaders: [string, string][]): Buffer {
  const headers: [string, string][] = [
    ...(request.noHost ? [] : [['Host', host] as [string, string]]),
    ...extraHeaders.filter(
      ([name]) => !request.headers.some(([own]) => own.toLowerCase() === name.toLowerCase()),
    ),
    ...request.headers,
    ['Connection', 'close'],
  ];
  if (request.body && !request.ownFraming) headers.push(['Content-Length', String(request.body.length)]);
  const head = `${request.method} ${request.target} HTTP/1.1\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), request.body ?? Buffer.alloc(0)]);
}

/** The first final (non-1xx) response in the bytes received. */
function parse(raw: Buffer): Pick<Outcome, 'status' | 'contentType' | 'body'> | undefined {
  let text = raw.toString('latin1');
  while (/^HTTP\/1\.1 1\d\d /.test(text)) text = text.slice(text.indexOf('\r\n\r\n') + 4);
  const end = text.indexOf('\r\n\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
  if (end < 0 || !status) return undefined;
  const head = text.slice(0, end);
  const header = (name: string) => new RegExp(`^${name}: *(.*)$`, 'im').exec(head)?.[1]?.trim();
  let body = text.slice(end + 4);
  const length = header('Content-Length');
  if (length !== undefined) body = body.slice(0, Number(length));
  else if (/chunked/i.test(header('Transfer-Encoding') ?? '')) {
    let rest = body;
    body = '';
    for (let size = parseInt(rest, 16); size > 0; size = parseInt(rest, 16)) {
      const start = rest.indexOf('\r\n') + 2;
      body += rest.slice(start, start + size);
      rest = rest.slice(start + size + 2);
    }
  }
  return {
    status: Number(status),
    contentType: header('Content-Type'),
    body: Buffer.from(body, 'latin1').toString('utf8'),
  };
}

function send(
  url: URL,
  request: HostileRequest,
  timeoutMs: number,
  extra: [string, string][],
): Promise<Outcome> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (outcome: Omit<Outcome, 'request'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ request, ...outcome });
    };
    const judge = () => {
      const parsed = parse(Buffer.concat(chunks));
      finish(parsed ?? { silent: true });
    };
    const socket = connect(Number(url.port), url.hostname, () =>
      socket.write(bytesOf(request, url.host, extra)),
    );
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', judge);
    // A reset after the answer (the server closed while the client still sent) keeps the answer.
    socket.on('error', judge);
    const timer = setTimeout(() => finish({ hung: true }), timeoutMs);
  });
}

export interface ProbeOptions {
  concurrency?: number;
  timeoutMs?: number;
  /** Headers every request carries unless it sets its own (e.g. valid credentials). */
  headers?: [string, string][];
}

export async function probe(
  baseUrl: string,
  corpus: HostileRequest[],
  options: ProbeOptions = {},
): Promise<Outcome[]> {
  const url = new URL(baseUrl);
  const { concurrency = 12, timeoutMs = 10_000, headers = [] } = options;
  const outcomes: Outcome[] = new Array(corpus.length);
  let next = 0;
  const worker = async () => {
    while (next < corpus.length) {
      const index = next++;
      outcomes[index] = await send(url, corpus[index]!, timeoutMs, headers);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return outcomes;
}

/** One line per broken promise: 5xx, hang, silence, or a 4xx whose body is not JSON. */
export function violations(outcomes: Outcome[]): string[] {
  return outcomes.flatMap((o) => {
    const what = `${o.request.name} (${o.request.method} ${o.request.target.slice(0, 80)})`;
    if (o.hung) return [`${what}: no answer before the deadline`];
    if (o.silent) return [`${what}: connection closed without an answer`];
    const status = o.status!;
    if (status >= 500) return [`${what}: ${status}`];
    if (status < 400 || status >= 500 || o.request.method === 'HEAD') return [];
    if (!/^application\/(problem\+)?json/i.test(o.contentType ?? ''))
      return [`${what}: ${status} typed ${o.contentType}`];
    try {
      JSON.parse(o.body ?? '');
      return [];
    } catch {
      return [`${what}: ${status} body is not JSON: ${(o.body ?? '').slice(0, 60)}`];
    }
  });
}
