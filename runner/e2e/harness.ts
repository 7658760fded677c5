// Shared by the runner's end-to-end tests: run `loadlab run` as a child process, and a loopback
// target that answers like the throw-away server the reference k6 outputs were recorded against.
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { K6_SAMPLES } from '../../fixtures/k6-reference/paths.js';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const SAMPLES = K6_SAMPLES;

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string>;
  cwd?: string;
  timeoutMs?: number;
  interruptAfterMs?: number;
  /** `node` (default): the project's runner; `k6`: a real k6 on PATH, for the same assertions. */
  engine?: 'node' | 'k6';
}

/** A k6 >= 1.0 on PATH, when this machine has one (CI and these machines do not). */
export function realK6Available(): boolean {
  const probe = spawnSync('k6', ['version'], { encoding: 'utf8' });
  const major = /k6 v(\d+)\./.exec(probe.stdout ?? '')?.[1];
  return probe.status === 0 && Number(major) >= 1;
}

export function runLoadlab(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const [command, prefix] =
      opts.engine === 'k6' ? ['k6', ['run']] : [process.execPath, [`${REPO}bin/loadlab.js`, 'run']];
    const child = spawn(command, [...prefix, ...args], {
      cwd: opts.cwd ?? REPO,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...opts.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    // Like a user's Ctrl-C: one SIGINT, then the runner must stop gracefully on its own.
    if (opts.interruptAfterMs !== undefined) setTimeout(() => child.kill('SIGINT'), opts.interruptAfterMs);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** /health, /api/auth/login, /api/users and /web/*.html answer 200; /fail answers 500. */
export async function startReferenceTarget(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    req.resume();
    req.on('end', () => {
      if (path === '/health') json(200, { status: 'ok' });
      else if (path === '/api/auth/login') json(200, { token: 'reference-token' });
      else if (path === '/api/users')
        json(200, { users: [{ id: 1, name: 'A', email: 'a@x', role: 'admin' }] });
      else if (path.startsWith('/web/')) {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>page</title>');
      } else json(path === '/fail' ? 500 : 404, { error: path });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((r) => server.close(() => r())) };
}
