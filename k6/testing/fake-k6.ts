// Runs a suite script under Node with the k6 modules replaced by recording fakes, so a test can
// assert exactly what one iteration does: requests (method, URL, headers, tags, group), checks,
// pauses, custom metrics and browser actions. The script is bundled by esbuild as build:k6 does;
// only the k6 imports resolve to the fakes below instead of staying external.
import { build } from 'esbuild';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface FakeResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** timings.duration in ms (default 5). */
  duration?: number;
}

export type TraceEvent =
  | {
      kind: 'request';
      method: string;
      url: string;
      body: string | null;
      headers: Record<string, string>;
      tags: Record<string, string>;
      group: string;
      /** The statuses a per-request responseCallback (http.expectedStatuses) marks expected. */
      expected?: number[];
    }
  | { kind: 'check'; name: string; ok: boolean; group: string }
  | { kind: 'sleep'; seconds: number }
  | { kind: 'metric'; name: string; type: 'trend' | 'rate' | 'counter'; isTime: boolean }
  | { kind: 'add'; name: string; value: number }
  | { kind: 'browser'; action: string; args: unknown[] };

export type Responder = (method: string, url: string, body: string | null) => FakeResponse;

/** What the sandbox and the clinic answer when everything works (shapes as in the spec). */
export const healthyResponder: Responder = (method, url) => {
  const path = new URL(url).pathname;
  if (path === '/health') return { status: 200, body: { status: 'ok' } };
  if (path === '/api/auth/login') return { status: 200, body: { token: 'fake-token' } };
  if (path === '/api/users') return { status: 200, body: { users: [{ name: 'a' }] } };
  if (path.startsWith('/web/'))
    return { status: 200, body: '<html></html>', headers: { 'Content-Type': 'text/html' } };
  if (method === 'POST') return { status: 201, body: { id: 7 } };
  if (method === 'PUT' || method === 'DELETE') return { status: 204 };
  return { status: 200, body: {} };
};

interface Recorder {
  trace: TraceEvent[];
  groups: string[];
  responder: Responder;
}

function fakeModules(rec: Recorder): Record<string, Record<string, unknown>> {
  const groupPath = () => (rec.groups.length ? `::${rec.groups.join('::')}` : '');
  const request = (method: string, url: string, body: unknown, params?: Record<string, unknown>) => {
    const text = body === null || body === undefined ? null : String(body);
    rec.trace.push({
      kind: 'request',
      method,
      url,
      body: text,
      headers: { ...((params?.headers as Record<string, string>) ?? {}) },
      tags: { ...((params?.tags as Record<string, string>) ?? {}) },
      group: groupPath(),
      ...(params?.responseCallback
        ? { expected: (params.responseCallback as { statuses: number[] }).statuses }
        : {}),
    });
    const answer = rec.responder(method, url, text);
    const raw = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? null);
    return {
      status: answer.status,
      body: raw,
      headers: answer.headers ?? { 'Content-Type': 'application/json' },
      timings: { duration: answer.duration ?? 5 },
      json: () => JSON.parse(raw) as unknown,
    };
  };
  const metric = (type: 'trend' | 'rate' | 'counter') =>
    function (this: { name: string }, name: string, isTime = false) {
      this.name = name;
      rec.trace.push({ kind: 'metric', name, type, isTime });
      (this as unknown as { add: (v: number | boolean) => void }).add = (v) =>
        rec.trace.push({ kind: 'add', name, value: Number(v) });
    };
  const browserAction = (action: string, ...args: unknown[]) =>
    rec.trace.push({ kind: 'browser', action, args });
  const page = {
    goto: async (url: string) => browserAction('goto', url),
    locator: (selector: string) => ({
      fill: async (value: string) => browserAction('fill', selector, value),
      click: async () => browserAction('click', selector),
    }),
    waitForNavigation: async () => browserAction('waitForNavigation'),
    url: () => 'http://fake/web/dashboard.html',
    close: async () => browserAction('close'),
  };
  return {
    k6: {
      check: (value: unknown, sets: Record<string, (v: unknown) => boolean>) => {
        let all = true;
        for (const [name, fn] of Object.entries(sets)) {
          const ok = Boolean(fn(value));
          all &&= ok;
          rec.trace.push({ kind: 'check', name, ok, group: groupPath() });
        }
        return all;
      },
      group: (name: string, fn: () => unknown) => {
        rec.groups.push(name);
        try {
          return fn();
        } finally {
          rec.groups.pop();
        }
      },
      sleep: (seconds: number) => rec.trace.push({ kind: 'sleep', seconds }),
      fail: (message: string) => {
        throw new Error(message);
      },
    },
    'k6/http': {
      default: {
        get: (url: string, params?: Record<string, unknown>) => request('GET', url, null, params),
        post: (url: string, body: unknown, params?: Record<string, unknown>) =>
          request('POST', url, body, params),
        put: (url: string, body: unknown, params?: Record<string, unknown>) =>
          request('PUT', url, body, params),
        del: (url: string, body: unknown, params?: Record<string, unknown>) =>
          request('DELETE', url, body, params),
        expectedStatuses: (...statuses: number[]) => ({ statuses }),
      },
    },
    'k6/metrics': { Trend: metric('trend'), Rate: metric('rate'), Counter: metric('counter') },
    'k6/encoding': { default: { b64encode: (s: string) => Buffer.from(s).toString('base64') } },
    'k6/browser': { browser: { newPage: async () => page } },
  };
}

const bundled = new Map<string, string>();
let loads = 0;

/** Bundles `entry` (e.g. k6/scenarios/smoke/api-health.ts) with the k6 imports pointing at the fakes. */
async function bundleWithFakes(entry: string, names: Record<string, string[]>): Promise<string> {
  const cached = bundled.get(entry);
  if (cached) return cached;
  const outfile = join(mkdtempSync(join(tmpdir(), 'loadlab-fake-k6-')), 'script.mjs');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    logLevel: 'silent',
    plugins: [
      {
        name: 'fake-k6',
        setup(b) {
          b.onResolve({ filter: /^k6(\/.*)?$/ }, (args) => ({ path: args.path, namespace: 'fake-k6' }));
          b.onLoad({ filter: /.*/, namespace: 'fake-k6' }, (args) => {
            const exported = names[args.path];
            if (!exported) return { errors: [{ text: `no fake for ${args.path}` }] };
            const source = `const m = globalThis.__fakeK6[${JSON.stringify(args.path)}];\n${exported
              .map((n) => (n === 'default' ? 'export default m.default;' : `export const ${n} = m.${n};`))
              .join('\n')}`;
            return { contents: source, loader: 'js' };
          });
        },
      },
    ],
  });
  bundled.set(entry, outfile);
  return outfile;
}

export interface LoadedScript {
  module: Record<string, unknown> & {
    options: Record<string, unknown>;
    default: (data?: unknown) => unknown;
  };
  /** Events so far: init-time metric declarations, then whatever the test runs. */
  trace: TraceEvent[];
  /** Forget the events so far (e.g. after init or setup). */
  reset(): void;
}

/** Loads a fresh instance of the script with `env` as __ENV. */
export async function loadScript(
  entry: string,
  env: Record<string, string>,
  responder: Responder = healthyResponder,
): Promise<LoadedScript> {
  const rec: Recorder = { trace: [], groups: [], responder };
  const modules = fakeModules(rec);
  const names = Object.fromEntries(Object.entries(modules).map(([k, v]) => [k, Object.keys(v)]));
  const file = await bundleWithFakes(entry, names);
  const g = globalThis as unknown as Record<string, unknown>;
  g.__fakeK6 = modules;
  g.__ENV = env;
  loads += 1;
  const module = (await import(`${pathToFileURL(file).href}?load=${loads}`)) as LoadedScript['module'];
  return { module, trace: rec.trace, reset: () => rec.trace.splice(0) };
}

/** Runs `fn` with Math.random returning `values` in turn (then the last one again). */
export async function withRandom<T>(values: number[], fn: () => T | Promise<T>): Promise<T> {
  const original = Math.random;
  let i = 0;
  Math.random = () => values[Math.min(i++, values.length - 1)]!;
  try {
    return await fn();
  } finally {
    Math.random = original;
  }
}

/** The trace as short lines, easy to compare with the spec's sequences. */
export function describeTrace(trace: TraceEvent[]): string[] {
  return trace.flatMap((e) => {
    switch (e.kind) {
      case 'request': {
        const auth = e.headers.Authorization ? ' +auth' : '';
        return [`${e.group ? `${e.group} ` : ''}${e.method} ${new URL(e.url).pathname}${auth}`];
      }
      case 'sleep':
        return [`sleep ${e.seconds}`];
      case 'browser':
        return [`${e.action} ${e.args.join(' ')}`.trim()];
      default:
        return [];
    }
  });
}
