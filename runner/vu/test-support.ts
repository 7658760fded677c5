// Helpers for the VU tests: a real node:http target on 127.0.0.1:0, scripts written to a temp
// folder, and a VU whose samples and logs are collected.
import http from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Sample } from '../contracts.js';
import {
  createVu,
  loadScript,
  SCENARIO_SLOTS,
  type IterationContext,
  type LoopSpec,
  type Vu,
} from '../host/hosted-vu.js';

export interface Target {
  base: string;
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

/** The test target: /json, /status/:code, /redirect, /bad-location, /cookie, /slow, /echo, /text. */
export async function startTarget(): Promise<Target> {
  const requests: Target['requests'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const u = new URL(req.url ?? '/', 'http://x');
      if (u.pathname === '/json') {
        res.setHeader('content-type', 'application/json');
        res.setHeader('x-multi', ['a', 'b']);
        res.end(JSON.stringify({ items: [{ id: 7, name: 'x' }], ok: true }));
      } else if (u.pathname.startsWith('/status/')) {
        res.statusCode = Number(u.pathname.slice(8));
        res.end('status');
      } else if (u.pathname === '/redirect') {
        res.statusCode = 302;
        res.setHeader('location', '/json');
        res.end();
      } else if (u.pathname === '/bad-location') {
        // k6's own "Bad location redirect" case: a Location Go's URL parser refuses.
        res.statusCode = 302;
        res.setHeader('location', 'h\t:/');
        res.end();
      } else if (u.pathname === '/cookie') {
        res.setHeader('set-cookie', 'sid=abc; Path=/; HttpOnly');
        res.end('set');
      } else if (u.pathname === '/slow') {
        setTimeout(() => res.end('slow'), Number(u.searchParams.get('ms') ?? 200));
      } else if (u.pathname === '/echo') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
      } else {
        res.end('hello');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const dir = mkdtempSync(path.join(tmpdir(), 'loadlab-vu-'));
let n = 0;

export function writeScript(code: string, ext = 'js', name?: string): string {
  const file = path.join(dir, name ?? `script-${++n}.${ext}`);
  writeFileSync(file, code);
  return file;
}

export interface Harness {
  vu: Vu;
  samples: Sample[];
  logs: { level: string; message: string; fields?: Record<string, string> }[];
}

export async function makeVu(
  code: string,
  opts: {
    env?: Record<string, string>;
    runTags?: Record<string, string>;
    vuId?: number;
    ext?: string;
    systemTags?: string[];
    insecureSkipTLSVerify?: boolean;
  } = {},
): Promise<Harness> {
  const file = writeScript(code, opts.ext);
  const bundle = await loadScript(file);
  const samples: Sample[] = [];
  const logs: Harness['logs'] = [];
  const vu = createVu(
    {
      scriptPath: file,
      bundle,
      vuId: opts.vuId ?? 1,
      env: opts.env ?? {},
      runTags: opts.runTags ?? {},
      ...(opts.systemTags ? { systemTags: opts.systemTags } : {}),
      ...(opts.insecureSkipTLSVerify ? { insecureSkipTLSVerify: true } : {}),
    },
    {
      onSamples: (s) => samples.push(...s),
      onLog: (level, message, fields) => logs.push({ level, message, fields }),
    },
  );
  return { vu, samples, logs };
}

export function ctx(over: Partial<IterationContext['scenario']> = {}, iteration = 0): IterationContext {
  return {
    scenario: {
      name: 'default',
      executor: 'shared-iterations',
      startTime: Date.now(),
      iterationInTest: iteration,
      progress: 0,
      env: {},
      tags: {},
      exec: 'default',
      ...over,
    },
    iterationInScenario: iteration,
    iterationInInstance: iteration,
    testOptions: {},
  };
}

/** A loop command for one VU of a constant-vus scenario, with its own fresh shared counters. */
export function loopSpec(over: Partial<LoopSpec> = {}): LoopSpec {
  return {
    fnName: 'default',
    data: undefined,
    scenario: {
      name: 'default',
      executor: 'constant-vus',
      startTime: Date.now(),
      env: {},
      tags: {},
      exec: 'default',
    },
    testOptions: {},
    iterationInScenario: 0,
    endAt: Date.now() + 10_000,
    maxIterations: Infinity,
    sharedBudget: false,
    progress: { durationMs: 10_000 },
    scenarioCounters: new SharedArrayBuffer(4 * SCENARIO_SLOTS),
    instanceCounter: new SharedArrayBuffer(4),
    ...over,
  };
}

/** Samples are delivered through worker messages: give the event loop a turn before reading them. */
export function settle(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}

/**
 * The mocha hooks every VU suite needs: one loopback target for the suite, and every VU pushed to
 * `open` closed after each test (a VU is a worker thread; a leaked one keeps mocha alive).
 */
export function vuSuite(): { readonly target: Target; open: Harness[] } {
  let target: Target | undefined;
  const open: Harness[] = [];
  before(async () => {
    target = await startTarget();
  });
  after(async () => {
    await target?.close();
  });
  afterEach(async () => {
    for (const h of open.splice(0)) await h.vu.close();
  });
  return {
    get target() {
      if (!target) throw new Error('the target starts in before()');
      return target;
    },
    open,
  };
}
