// Each scenario against the spec's request-sequence table, literally: options (scenario name,
// executor, tags test_type/suite, profile, thresholds), one iteration's requests, pauses, tags and
// checks, and the custom metrics with their types. The k6 modules are recording fakes (../testing).
import assert from 'node:assert/strict';
import { profileByName } from '../lib/profiles.js';
import { scenarioThresholds } from '../lib/thresholds.js';
import {
  describeTrace,
  healthyResponder,
  loadScript,
  withRandom,
  type TraceEvent,
} from '../testing/fake-k6.js';

const ENV = { BASE_URL: 'http://sandbox.test', DEMO_EMAIL: 'demo@loadlab.test', DEMO_PASSWORD: 'pw' };

type Options = {
  scenarios: Record<string, Record<string, unknown>>;
  thresholds: Record<string, string[]>;
};

const requests = (trace: TraceEvent[]) =>
  trace.filter((e): e is Extract<TraceEvent, { kind: 'request' }> => e.kind === 'request');
const checkNames = (trace: TraceEvent[]) => trace.flatMap((e) => (e.kind === 'check' ? [e.name] : []));
const metrics = (trace: TraceEvent[]) =>
  trace.flatMap((e) => (e.kind === 'metric' ? [`${e.name}:${e.type}${e.isTime ? ':time' : ''}`] : []));
const adds = (trace: TraceEvent[], name: string) =>
  trace.flatMap((e) => (e.kind === 'add' && e.name === name ? [e.value] : []));

/** The one ramping-vus scenario of a profile-driven script. */
function assertRamping(
  options: Options,
  name: string,
  tags: object,
  profile: Parameters<typeof profileByName>[0],
) {
  assert.deepEqual(Object.keys(options.scenarios), [name]);
  const scenario = options.scenarios[name]!;
  assert.equal(scenario.executor, 'ramping-vus');
  assert.deepEqual(scenario.tags, tags);
  const expected = profileByName(profile, ENV);
  assert.deepEqual(scenario.stages, expected.stages);
  assert.equal(scenario.gracefulRampDown, expected.gracefulRampDown);
}

// Declared by lib/iteration.ts before the scenario's own metrics.
const GATE_METRIC = 'completed_iterations:counter';
const HEALTH_CHECKS = ['health status 200', 'health responds quickly'];
const USERS_CHECKS = ['users status 200', 'users has array', 'users responds within 2s'];
const LOGIN_CHECKS = ['login status 200', 'login has token'];
const STATIC_CHECKS = ['static page status 200', 'static page has html'];

describe('k6 scenarios (spec sequences)', function () {
  this.timeout(20_000);

  it('smoke: health, 0.5 s, anonymous users, 0.5 s, login, 1 s; smoke_api tagged smoke/api-health', async () => {
    const s = await loadScript('k6/scenarios/smoke/api-health.ts', ENV);
    const options = s.module.options as Options;
    assertRamping(options, 'smoke_api', { test_type: 'smoke', suite: 'api-health' }, 'smoke');
    assert.deepEqual(options.thresholds, scenarioThresholds('smoke'));
    s.reset();
    s.module.default();
    assert.deepEqual(describeTrace(s.trace), [
      'GET /health',
      'sleep 0.5',
      'GET /api/users',
      'sleep 0.5',
      'POST /api/auth/login',
      'sleep 1',
    ]);
    assert.deepEqual(checkNames(s.trace), [...HEALTH_CHECKS, ...USERS_CHECKS, ...LOGIN_CHECKS]);
    assert.deepEqual(
      requests(s.trace).map((r) => r.tags),
      [
        { endpoint: 'health', name: 'GET /health' },
        { endpoint: 'users', name: 'GET /api/users' },
        { endpoint: 'auth_login', name: 'POST /api/auth/login' },
      ],
    );
    const loginRequest = requests(s.trace)[2]!;
    assert.equal(loginRequest.headers['Content-Type'], 'application/json');
    assert.deepEqual(JSON.parse(loginRequest.body!), { email: ENV.DEMO_EMAIL, password: ENV.DEMO_PASSWORD });
  });

  it('smoke under CI=true runs the ci profile; LT_PROFILE overrides; unknown gives smoke', async () => {
    const ci = (await loadScript('k6/scenarios/smoke/api-health.ts', { ...ENV, CI: 'true' })).module
      .options as Options;
    assert.deepEqual(ci.scenarios.smoke_api!.stages, profileByName('ci', {}).stages);
    const load = (await loadScript('k6/scenarios/smoke/api-health.ts', { ...ENV, LT_PROFILE: 'load' })).module
      .options as Options;
    assert.deepEqual(load.thresholds, scenarioThresholds('load'));
    const unknown = (await loadScript('k6/scenarios/smoke/api-health.ts', { ...ENV, LT_PROFILE: 'heavy' }))
      .module.options as Options;
    assert.deepEqual(unknown.scenarios.smoke_api!.stages, profileByName('smoke', {}).stages);
  });

  it('stops at init with one line when credentials are missing', async () => {
    await assert.rejects(
      loadScript('k6/scenarios/smoke/api-health.ts', { BASE_URL: ENV.BASE_URL }),
      (e: Error) => /^DEMO_EMAIL and DEMO_PASSWORD must be set/.test(e.message) && !e.message.includes('\n'),
    );
  });

  it('load auth: one login per iteration, pause 0.5-1.5 s, load profile, login_duration (time) and login_errors (rate)', async () => {
    const s = await loadScript('k6/scenarios/load/api-auth.ts', ENV);
    const options = s.module.options as Options;
    assertRamping(options, 'load_auth', { test_type: 'load', suite: 'api-auth' }, 'load');
    assert.deepEqual(
      options.thresholds,
      scenarioThresholds('load', { login_duration: ['p(95)<2000'], login_errors: ['rate<0.01'] }),
    );
    assert.deepEqual(metrics(s.trace), [GATE_METRIC, 'login_duration:trend:time', 'login_errors:rate']);
    s.reset();
    await withRandom([0.5], () => s.module.default());
    assert.deepEqual(describeTrace(s.trace), ['POST /api/auth/login', 'sleep 1']);
    assert.deepEqual(adds(s.trace, 'login_duration'), [5]);
    assert.deepEqual(adds(s.trace, 'login_errors'), [0]);
  });

  it('load users: setup logs in once; each iteration GET users with the token, 0.5 s + random 0-1 s', async () => {
    const s = await loadScript('k6/scenarios/load/api-users.ts', ENV);
    const options = s.module.options as Options;
    assertRamping(options, 'load_users', { test_type: 'load', suite: 'api-users' }, 'load');
    assert.deepEqual(options.thresholds, scenarioThresholds('load', { users_list_duration: ['p(95)<2000'] }));
    assert.deepEqual(metrics(s.trace), [GATE_METRIC, 'users_list_duration:trend:time']);
    s.reset();
    const data = (s.module.setup as () => unknown)();
    assert.deepEqual(data, { token: 'fake-token' });
    assert.deepEqual(describeTrace(s.trace), ['POST /api/auth/login']);
    s.reset();
    await withRandom([0], () => s.module.default(data));
    await withRandom([0.999], () => s.module.default(data));
    const lines = describeTrace(s.trace);
    assert.deepEqual(lines.slice(0, 2), ['GET /api/users +auth', 'sleep 0.5']);
    assert.equal(lines[2], 'GET /api/users +auth');
    assert.ok(Math.abs(Number(lines[3]!.split(' ')[1]) - 1.499) < 1e-9, lines[3]);
    assert.equal(requests(s.trace)[0]!.headers.Authorization, 'Bearer fake-token');
    assert.deepEqual(adds(s.trace, 'users_list_duration'), [5, 5]);
  });

  it('mixed traffic: login, one pick by weights 35/30/15/20, pause 0.5-2 s; mixed_request_duration is a plain Trend', async () => {
    const s = await loadScript('k6/scenarios/load/mixed-traffic.ts', ENV);
    const options = s.module.options as Options;
    assertRamping(options, 'mixed_traffic', { test_type: 'load', suite: 'mixed-traffic' }, 'load');
    assert.deepEqual(options.thresholds, scenarioThresholds('load'));
    assert.deepEqual(metrics(s.trace), [GATE_METRIC, 'mixed_request_duration:trend']);
    assert.deepEqual(
      (s.module.ACTIONS as { weight: number }[]).map((a) => a.weight),
      [35, 30, 15, 20],
    );
    // Random values: the pick (x100 = point on the weights), then the static page, then the pause.
    const iteration = async (randoms: number[]) => {
      s.reset();
      await withRandom(randoms, () => s.module.default());
      return describeTrace(s.trace);
    };
    assert.deepEqual(await iteration([0.349, 0]), ['POST /api/auth/login', 'GET /health', 'sleep 0.5']);
    assert.deepEqual(await iteration([0.35, 0]), [
      'POST /api/auth/login',
      'GET /api/users +auth',
      'sleep 0.5',
    ]);
    assert.deepEqual(await iteration([0.65, 0.99, 0]), [
      'POST /api/auth/login',
      'GET /web/activity.html',
      'sleep 0.5',
    ]);
    assert.deepEqual(await iteration([0.8, 0.5]), ['POST /api/auth/login', 'GET /api/users', 'sleep 1.25']);
    assert.deepEqual(adds(s.trace, 'mixed_request_duration'), [5]);
    // All five static pages can be picked, each with the static tags and checks.
    const pages = new Set<string>();
    for (const r of [0, 0.2, 0.4, 0.6, 0.8]) {
      s.reset();
      await withRandom([0.7, r, 0], () => s.module.default());
      const page = requests(s.trace)[1]!;
      assert.equal(page.tags.endpoint, 'static');
      pages.add(page.tags.name!);
      assert.deepEqual(checkNames(s.trace).slice(2), STATIC_CHECKS);
    }
    assert.deepEqual(
      [...pages].sort(),
      ['activity', 'dashboard', 'login', 'settings', 'team'].map((p) => `GET /web/${p}.html`),
    );
  });

  it('stress: stress profile; health and users, degraded_responses (counter) counts errors only', async () => {
    const s = await loadScript('k6/scenarios/stress/api-breakpoint.ts', ENV);
    const options = s.module.options as Options;
    assertRamping(options, 'stress_api', { test_type: 'stress', suite: 'api-breakpoint' }, 'stress');
    assert.deepEqual(options.thresholds, scenarioThresholds('stress'));
    assert.deepEqual(metrics(s.trace), [GATE_METRIC, 'degraded_responses:counter']);
    s.reset();
    s.module.default();
    assert.deepEqual(describeTrace(s.trace), ['GET /health', 'GET /api/users', 'sleep 0.5']);
    assert.deepEqual(adds(s.trace, 'degraded_responses'), []);
    const failing = await loadScript('k6/scenarios/stress/api-breakpoint.ts', ENV, () => ({ status: 503 }));
    failing.module.default();
    assert.deepEqual(adds(failing.trace, 'degraded_responses'), [1, 1]);
    const breakpoint = (
      await loadScript('k6/scenarios/stress/api-breakpoint.ts', { ...ENV, LT_PROFILE: 'breakpoint' })
    ).module.options as Options;
    assert.deepEqual(breakpoint.scenarios.stress_api!.stages, profileByName('breakpoint', {}).stages);
    assert.deepEqual(breakpoint.thresholds, scenarioThresholds('stress'));
  });

  it('spike: health, login, users, minimal pause; spike_failures (rate<0.10)', async () => {
    const s = await loadScript('k6/scenarios/spike/api-spike.ts', ENV);
    const options = s.module.options as Options;
    assertRamping(options, 'spike_api', { test_type: 'spike', suite: 'api-spike' }, 'spike');
    assert.deepEqual(options.thresholds, scenarioThresholds('spike', { spike_failures: ['rate<0.10'] }));
    assert.deepEqual(metrics(s.trace), [GATE_METRIC, 'spike_failures:rate']);
    s.reset();
    s.module.default();
    const lines = describeTrace(s.trace);
    assert.deepEqual(lines.slice(0, 3), ['GET /health', 'POST /api/auth/login', 'GET /api/users +auth']);
    assert.ok(lines.length === 4 && Number(lines[3]!.split(' ')[1]) <= 0.1, lines.join(', '));
    assert.deepEqual(adds(s.trace, 'spike_failures'), [0, 0, 0]);
  });

  it('soak: 15 VUs steady for LT_SOAK_MINUTES, soak thresholds', async () => {
    const s = await loadScript('k6/scenarios/soak/api-endurance.ts', { ...ENV, LT_SOAK_MINUTES: '45' });
    const options = s.module.options as Options;
    assert.deepEqual(options.scenarios.soak_api!.stages, [
      { duration: '2m', target: 15 },
      { duration: '45m', target: 15 },
      { duration: '2m', target: 0 },
    ]);
    assert.deepEqual(options.scenarios.soak_api!.tags, { test_type: 'soak', suite: 'api-endurance' });
    assert.deepEqual(options.thresholds, scenarioThresholds('soak'));
  });

  it('browser: shared-iterations 2 VUs x 4, Chromium via options.browser.type, the spec page flow', async () => {
    const s = await loadScript('k6/scenarios/browser/login-page.ts', {
      ...ENV,
      LT_PROFILE: 'load',
      CI: 'true',
    });
    const options = s.module.options as Options;
    assert.deepEqual(options.scenarios, {
      browser_login: {
        executor: 'shared-iterations',
        vus: 2,
        iterations: 4,
        options: { browser: { type: 'chromium' } },
        tags: { test_type: 'browser', suite: 'login-page' },
      },
    });
    assert.deepEqual(options.thresholds, scenarioThresholds('smoke', { browser_page_load: ['p(95)<5000'] }));
    assert.deepEqual(metrics(s.trace), [GATE_METRIC, 'browser_page_load:trend:time']);
    s.reset();
    await s.module.default();
    assert.deepEqual(describeTrace(s.trace), [
      'goto http://sandbox.test/web/login.html',
      `fill [data-testid=login-email] ${ENV.DEMO_EMAIL}`,
      `fill [data-testid=login-password] ${ENV.DEMO_PASSWORD}`,
      'waitForNavigation',
      'click [data-testid=login-submit]',
      'close',
      'sleep 1',
    ]);
    assert.equal(adds(s.trace, 'browser_page_load').length, 1);
    // A shorter run keeps the browser: env vars size the scenario, CLI --vus/--iterations would replace it.
    const short = (
      await loadScript('k6/scenarios/browser/login-page.ts', {
        ...ENV,
        LT_BROWSER_VUS: '1',
        LT_BROWSER_ITERATIONS: '1',
      })
    ).module.options as Options;
    assert.deepEqual(
      [
        short.scenarios.browser_login!.vus,
        short.scenarios.browser_login!.iterations,
        short.scenarios.browser_login!.options,
      ],
      [1, 1, { browser: { type: 'chromium' } }],
    );
    await assert.rejects(
      loadScript('k6/scenarios/browser/login-page.ts', { ...ENV, LT_BROWSER_ITERATIONS: '0' }),
      /^Error: LT_BROWSER_ITERATIONS must be a whole number >= 1, got "0"$/,
    );
    // Smoke thresholds whatever LT_PROFILE/CI say, so the summary is labelled smoke too.
    const files = (s.module.handleSummary as (d: unknown) => Record<string, string>)(EMPTY_SUMMARY);
    assert.ok(
      Object.keys(files).some((f) => /^results\/summary-browser-login-smoke-/.test(f)),
      Object.keys(files).join(),
    );
  });

  it('error simulation: health, simulated 404, pause, simulated 422, users, pause; the errors are expected', async () => {
    const s = await loadScript('k6/scenarios/errors/error-simulation.ts', ENV, (method, url) =>
      url.includes('/api/errors/')
        ? { status: Number(url.slice(-3)), body: {}, headers: { 'Content-Type': 'application/problem+json' } }
        : healthyResponder(method, url, null),
    );
    const options = s.module.options as Options;
    assertRamping(options, 'error_simulation', { test_type: 'errors', suite: 'error-simulation' }, 'smoke');
    assert.deepEqual(
      options.thresholds,
      scenarioThresholds('smoke', { 'http_req_failed{endpoint:errors}': ['rate==0'] }),
    );
    s.reset();
    s.module.default();
    assert.deepEqual(describeTrace(s.trace), [
      'GET /health',
      'GET /api/errors/404',
      'sleep 0.5',
      'GET /api/errors/422',
      'GET /api/users',
      'sleep 0.5',
    ]);
    assert.deepEqual(
      requests(s.trace).map((r) => r.expected),
      [undefined, [404], [422], undefined],
    );
    assert.ok(s.trace.every((e) => e.kind !== 'check' || e.ok));
  });

  it('every profile-driven scenario labels its summary files with the scenario and the profile that ran', async () => {
    const s = await loadScript('k6/scenarios/load/api-auth.ts', { ...ENV, LT_PROFILE: 'spike' });
    const files = (s.module.handleSummary as (d: unknown) => Record<string, string>)(EMPTY_SUMMARY);
    assert.ok(
      Object.keys(files).some((f) => /^results\/summary-load-auth-spike-\d{4}-/.test(f)),
      Object.keys(files).join(),
    );
    assert.ok('results/summary-latest.json' in files && 'stdout' in files);
  });
});

describe('k6 clinic scenarios', function () {
  this.timeout(20_000);
  const CLINIC = {
    CLINIC_BASE_URL: 'http://clinic.test/petclinic/api',
    CLINIC_SECURE_BASE_URL: 'http://secure.test/petclinic/api',
    ADMIN_USER: 'admin',
    ADMIN_PASSWORD: 'secret',
  };

  it('CRUD journey follows the upstream JMeter benchmark: create, add pet, add visit, read, update, delete', async () => {
    const s = await loadScript('k6/scenarios/clinic/crud-journey.ts', CLINIC);
    const options = s.module.options as Options;
    assertRamping(options, 'clinic_crud', { test_type: 'journey', suite: 'clinic-crud' }, 'smoke');
    s.reset();
    s.module.default();
    assert.deepEqual(describeTrace(s.trace), [
      '::01_create_owner POST /petclinic/api/owners',
      '::02_add_pet POST /petclinic/api/owners/7/pets',
      '::03_add_visit POST /petclinic/api/visits',
      '::04_read GET /petclinic/api/owners/7',
      '::04_read GET /petclinic/api/owners/7/pets/7',
      '::05_update PUT /petclinic/api/owners/7',
      '::05_update PUT /petclinic/api/pets/7',
      '::06_delete DELETE /petclinic/api/pets/7',
      '::06_delete DELETE /petclinic/api/owners/7',
      'sleep 0.5',
    ]);
    assert.equal(JSON.parse(requests(s.trace)[2]!.body!).petId, 7);
    assert.ok(
      requests(s.trace).every((r) => r.tags.endpoint === 'clinic' && !/\/7(\/|$)/.test(r.tags.name!)),
    );
    assert.ok(s.trace.every((e) => e.kind !== 'check' || e.ok));
  });

  it('secured run: several scenarios, each with exec naming an exported function and its scenario tag', async () => {
    const s = await loadScript('k6/scenarios/clinic/secured-api.ts', CLINIC);
    const options = s.module.options as Options;
    assert.ok(Object.keys(options.scenarios).length >= 2);
    for (const [name, scenario] of Object.entries(options.scenarios)) {
      assert.equal(typeof s.module[scenario.exec as string], 'function', `${name} exec`);
      assert.equal((scenario.tags as Record<string, string>).scenario, name);
    }
    s.reset();
    (s.module.ownersReader as () => void)();
    assert.equal(
      requests(s.trace)[0]!.headers.Authorization,
      `Basic ${Buffer.from('admin:secret').toString('base64')}`,
    );
    await assert.rejects(
      loadScript('k6/scenarios/clinic/secured-api.ts', { ...CLINIC, ADMIN_PASSWORD: '' }),
      /ADMIN_USER and ADMIN_PASSWORD must be set/,
    );
  });
});

const EMPTY_SUMMARY = {
  metrics: {},
  root_group: { name: '', path: '', groups: [], checks: [] },
  state: { testRunDurationMs: 1000 },
};
