import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import request from 'supertest';
import { runCommand } from '../../devkit/command.js';
import { listen } from '../shared/server.js';
import { firstResponse, rawExchange } from '../shared/test-raw-http.js';
import { createSandboxApp } from './app.js';
import { MAX_FAULT_LATENCY_MS, type SandboxConfig } from './config.js';
import { faultPlan } from './faults.js';
import { signToken } from './tokens.js';

const config: SandboxConfig = {
  demoEmail: 'demo@test.local',
  demoPassword: 'correct horse',
  tokenSecret: 'test-secret',
  tokenTtlSeconds: 60,
  faults: { enabled: false, latencyMs: 0, errorRate: 0 },
};

function expectProblem(res: request.Response, status: number): void {
  assert.equal(res.status, status);
  assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
  assert.equal(res.body.status, status);
  assert.equal(typeof res.body.title, 'string');
}

async function login(app: ReturnType<typeof createSandboxApp>): Promise<string> {
  const res = await request(app)
    .post('/api/auth/login')
    .send({ email: config.demoEmail, password: config.demoPassword });
  assert.equal(res.status, 200);
  return res.body.token as string;
}

describe('sandbox app', () => {
  const app = createSandboxApp(config);

  it('answers /health with status ok', async () => {
    const res = await request(app).get('/health').expect(200);
    assert.equal(res.body.status, 'ok');
  });

  describe('login', () => {
    it('returns a token and the user for the demo credentials (email case-insensitive)', async () => {
      const res = await request(app)
        .post('/api/auth/login')
        .send({ email: 'DEMO@test.local', password: config.demoPassword })
        .expect(200);
      assert.equal(typeof res.body.token, 'string');
      assert.deepEqual(res.body.user, { email: config.demoEmail, name: 'Demo User', role: 'admin' });
    });

    it('rejects wrong credentials with 401', async () => {
      expectProblem(
        await request(app).post('/api/auth/login').send({ email: config.demoEmail, password: 'nope' }),
        401,
      );
      expectProblem(
        await request(app).post('/api/auth/login').send({ email: 'x@y.z', password: config.demoPassword }),
        401,
      );
    });

    it('rejects malformed JSON (400), wrong types (400), wrong content type (415), big bodies (413)', async () => {
      expectProblem(
        await request(app).post('/api/auth/login').set('Content-Type', 'application/json').send('{"email":'),
        400,
      );
      const typed = await request(app)
        .post('/api/auth/login')
        .send({ email: 42, password: ['x'] });
      expectProblem(typed, 400);
      assert.deepEqual(
        typed.body.invalidParams.map((p: { name: string }) => p.name),
        ['email', 'password'],
      );
      expectProblem(await request(app).post('/api/auth/login').send({ email: config.demoEmail }), 400);
      expectProblem(
        await request(app).post('/api/auth/login').set('Content-Type', 'application/json').send('[1]'),
        400,
      );
      expectProblem(await request(app).post('/api/auth/login').type('form').send('email=a&password=b'), 415);
      expectProblem(
        await request(app)
          .post('/api/auth/login')
          .send({ email: config.demoEmail, password: 'x'.repeat(10_000) }),
        413,
      );
    });
  });

  describe('users', () => {
    it('lists at least 10 users with id, name, email and role, anonymously and with a token', async () => {
      const anonymous = await request(app).get('/api/users').expect(200);
      assert.ok(anonymous.body.users.length >= 10);
      for (const user of anonymous.body.users) {
        assert.deepEqual(Object.keys(user).sort(), ['email', 'id', 'name', 'role']);
      }
      const token = await login(app);
      const authed = await request(app).get('/api/users').set('Authorization', `Bearer ${token}`).expect(200);
      assert.deepEqual(authed.body, anonymous.body);
    });

    it('rejects tampered, foreign, expired and malformed tokens with 401', async () => {
      const token = await login(app);
      const tampered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
      const foreign = signToken(config.demoEmail, 60, 'another-secret');
      const expired = signToken(config.demoEmail, 60, config.tokenSecret, Date.now() - 120_000);
      for (const header of [
        `Bearer ${tampered}`,
        `Bearer ${foreign}`,
        `Bearer ${expired}`,
        'Bearer',
        'Basic abc',
      ]) {
        const res = await request(app).get('/api/users').set('Authorization', header);
        expectProblem(res, 401);
      }
      const res = await request(app).get('/api/users').set('Authorization', `Bearer ${expired}`);
      assert.match(res.body.detail, /expired/);
    });

    it('expires tokens after the configured lifetime', async () => {
      const shortLived = createSandboxApp({ ...config, tokenTtlSeconds: 1 });
      const token = await login(shortLived);
      await request(shortLived).get('/api/users').set('Authorization', `Bearer ${token}`).expect(200);
      // Wait for the token's own exp (whole seconds), not a guess that a loaded machine can outrun.
      const { exp } = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as {
        exp: number;
      };
      assert.ok(exp * 1000 - Date.now() <= 2000, `a 1 s token lives until ${exp}`);
      await new Promise((r) => setTimeout(r, Math.max(0, exp * 1000 - Date.now()) + 50));
      expectProblem(await request(shortLived).get('/api/users').set('Authorization', `Bearer ${token}`), 401);
    });
  });

  describe('pages', () => {
    for (const name of ['login', 'dashboard', 'team', 'settings', 'activity']) {
      it(`serves /web/${name}.html as HTML without external resources`, async () => {
        const res = await request(app).get(`/web/${name}.html`).expect(200);
        assert.match(res.headers['content-type'] ?? '', /text\/html/);
        assert.doesNotMatch(res.text, /(src|href)="(https?:)?\/\//);
      });
    }

    it('has the login form the suite and the browser scenario drive', async () => {
      const res = await request(app).get('/web/login.html');
      for (const id of ['login-email', 'login-password', 'login-submit'])
        assert.match(res.text, new RegExp(`data-testid="${id}"`));
    });

    it('answers 404 problem+json for unknown paths and traversal attempts', async () => {
      for (const path of [
        '/nope',
        '/web/../package.json',
        '/web/%2e%2e/package.json',
        '/web/app.ts',
        '/web/',
      ]) {
        expectProblem(await request(app).get(path), 404);
      }
    });
  });

  it('simulates 404 and 422 errors with a message', async () => {
    expectProblem(await request(app).get('/api/errors/404'), 404);
    const res = await request(app).get('/api/errors/422');
    expectProblem(res, 422);
    assert.match(res.body.detail, /invalid/);
  });

  describe('fault injection', () => {
    it('is inert unless enabled', async () => {
      await request(app).get('/health').set('x-fault-error-rate', '1').expect(200);
    });

    it('adds errors and latency per header or query when enabled', async () => {
      const faulty = createSandboxApp({ ...config, faults: { enabled: true, latencyMs: 0, errorRate: 0 } });
      expectProblem(await request(faulty).get('/api/users').set('x-fault-error-rate', '1'), 503);
      expectProblem(await request(faulty).get('/health?faultErrorRate=1'), 503);
      await request(faulty).get('/health?faultErrorRate=0').expect(200);
      const started = Date.now();
      await request(faulty).get('/health').set('x-fault-latency-ms', '150').expect(200);
      assert.ok(Date.now() - started >= 140, 'the response waited for the injected latency');
    });

    it('bounds per-request values: latency to 0..10 s, error rate to 0..1, garbage to the default', () => {
      const defaults = { enabled: true, latencyMs: 20, errorRate: 0.1 };
      const plan = (headers: Record<string, string>, query: Record<string, string> = {}) =>
        faultPlan({ headers, query }, defaults);
      assert.deepEqual(plan({ 'x-fault-latency-ms': '999999', 'x-fault-error-rate': '7' }), {
        latencyMs: MAX_FAULT_LATENCY_MS,
        errorRate: 1,
      });
      assert.deepEqual(plan({ 'x-fault-latency-ms': '-5', 'x-fault-error-rate': '-1' }), {
        latencyMs: 0,
        errorRate: 0,
      });
      assert.deepEqual(plan({ 'x-fault-latency-ms': 'soon', 'x-fault-error-rate': 'NaN' }), {
        latencyMs: 20,
        errorRate: 0.1,
      });
      // The header wins over the query string.
      assert.equal(plan({ 'x-fault-error-rate': '0' }, { faultErrorRate: '1' }).errorRate, 0);
      assert.equal(plan({}, { faultErrorRate: '0.5' }).errorRate, 0.5);
    });

    it('counts injected errors under the templated route in /metrics', async () => {
      const faulty = createSandboxApp({ ...config, faults: { enabled: true, latencyMs: 0, errorRate: 0 } });
      await request(faulty).get('/api/users').set('x-fault-error-rate', '1').expect(503);
      await request(faulty)
        .post('/api/auth/login')
        .set('x-fault-error-rate', '1')
        .send({ email: 'a', password: 'b' })
        .expect(503);
      const text = (await request(faulty).get('/metrics')).text;
      assert.match(text, /http_requests_total\{method="GET",route="\/api\/users",status="503"[^}]*\} 1/);
      assert.match(
        text,
        /http_requests_total\{method="POST",route="\/api\/auth\/login",status="503"[^}]*\} 1/,
      );
    });

    it('applies the configured defaults to every request', async () => {
      const failing = createSandboxApp({ ...config, faults: { enabled: true, latencyMs: 0, errorRate: 1 } });
      expectProblem(await request(failing).get('/api/users'), 503);
      await request(failing).get('/metrics').expect(200);
    });
  });

  describe('bad input on the wire (raw requests no HTTP client would send as written)', () => {
    let url: string;
    let close: () => Promise<void>;
    before(async () => {
      const started = await listen(createSandboxApp(config), 0, '127.0.0.1');
      url = started.url;
      close = started.close;
    });
    after(() => close());

    const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`;
    const login = (headers: string, body: string) =>
      `POST /api/auth/login HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n${body}`;

    it('answers dot-dot paths under /web/ with 404 problem+json, never a file', async () => {
      for (const path of ['/web/../x', '/web/../../package.json', '/web/..%2fapp.ts', '/web/./../.env']) {
        const res = firstResponse(await rawExchange(url, get(path)));
        assert.equal(res.status, 404, path);
        assert.match(res.headers, /Content-Type: application\/problem\+json/i, path);
        assert.equal(JSON.parse(res.body).instance, path);
      }
    });

    it('refuses a declared oversized body with 413 at once, without waiting for the upload', async () => {
      const started = Date.now();
      // Declares 100 MB and sends one byte: the answer must not wait for the rest.
      const raw = await rawExchange(
        url,
        login('Content-Type: application/json\r\nContent-Length: 100000000\r\n', '{'),
        3000,
      );
      const res = firstResponse(raw);
      assert.equal(res.status, 413);
      assert.match(res.headers, /application\/problem\+json/);
      assert.ok(Date.now() - started < 2000);
    });

    it('maps bodies that cannot be decoded to 400 or 415, never 500', async () => {
      const cases: [string, string, number][] = [
        ['Content-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 5\r\n', 'hello', 400],
        ['Content-Type: application/json\r\nContent-Encoding: zstd\r\nContent-Length: 2\r\n', '{}', 415],
        ['Content-Type: application/json; charset=latin1\r\nContent-Length: 2\r\n', '{}', 415],
        ['Content-Type: application/json\r\nContent-Length: 4\r\n', 'null', 400],
        ['Content-Length: 2\r\n', '{}', 415],
      ];
      for (const [headers, body, status] of cases) {
        const res = firstResponse(await rawExchange(url, login(headers, body)));
        assert.equal(res.status, status, headers);
        assert.match(res.headers, /application\/problem\+json/, headers);
      }
    });
  });

  describe('logs', () => {
    function capture(level: string) {
      const lines: Record<string, unknown>[] = [];
      const sink = new Writable({
        write(chunk: Buffer, _enc, done) {
          for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
          done();
        },
      });
      return { lines, logger: pino({ level }, sink) };
    }

    it('writes one structured access line per request at debug, none at info', async () => {
      const debug = capture('debug');
      await request(createSandboxApp(config, { logger: debug.logger }))
        .get('/api/users')
        .expect(200);
      const [line] = debug.lines.filter((l) => l.msg === 'request');
      assert.equal(line?.level, 20);
      assert.equal(line?.route, '/api/users');
      assert.equal(line?.status, '200');
      assert.equal(typeof line?.ms, 'number');
      const info = capture('info');
      await request(createSandboxApp(config, { logger: info.logger }))
        .get('/api/users')
        .expect(200);
      assert.deepEqual(info.lines, []);
    });
  });

  describe('/metrics', () => {
    it('counts requests by templated route and status', async () => {
      const res = await request(app).get('/metrics').expect(200);
      assert.match(
        res.text,
        /http_requests_total\{method="GET",route="\/api\/users",status="200",service="sandbox"\} \d+/,
      );
      assert.match(res.text, /http_request_duration_seconds_bucket\{/);
      assert.match(res.text, /process_cpu_user_seconds_total/);
    });

    it('is valid exposition format for promtool', async function () {
      if (!existsSync('/usr/bin/promtool')) this.skip();
      const res = await request(app).get('/metrics');
      const run = await runCommand('promtool', ['check', 'metrics'], {
        cwd: process.cwd(),
        env: { ...process.env },
        input: res.text,
      });
      // promtool also lints names; prom-client's own default gauges (nodejs_active_*_total) break one
      // naming rule upstream, which is no format error. Anything else is ours to fix.
      const problems = `${run.stdout}${run.stderr}`
        .split('\n')
        .filter((line) => line.trim() !== '')
        .filter(
          (line) =>
            !/^nodejs_active_\w+_total non-counter metrics should not have "_total" suffix$/.test(line),
        );
      assert.deepEqual(problems, []);
    });
  });
});
