// The two journeys against the spec's table: groups in order, the request and pause inside each,
// the checks, and the journey metrics with their types.
import assert from 'node:assert/strict';
import { profileByName } from '../lib/profiles.js';
import { scenarioThresholds } from '../lib/thresholds.js';
import { describeTrace, loadScript, withRandom, type TraceEvent } from '../testing/fake-k6.js';

const ENV = { BASE_URL: 'http://sandbox.test', DEMO_EMAIL: 'demo@loadlab.test', DEMO_PASSWORD: 'pw' };

type Options = { scenarios: Record<string, Record<string, unknown>>; thresholds: Record<string, string[]> };

const metrics = (trace: TraceEvent[]) =>
  trace.flatMap((e) => (e.kind === 'metric' ? [`${e.name}:${e.type}${e.isTime ? ':time' : ''}`] : []));
const adds = (trace: TraceEvent[], name: string) =>
  trace.flatMap((e) => (e.kind === 'add' && e.name === name ? [e.value] : []));

describe('k6 journeys (spec sequences)', function () {
  this.timeout(20_000);

  it('login flow: 01_load_login_page, 02_api_login, 03_post_login_navigation, pause 0.5-1.5 s; login_flow_duration (time)', async () => {
    const s = await loadScript('k6/journeys/login-flow.ts', ENV);
    const options = s.module.options as Options;
    assert.deepEqual(options.scenarios.journey_login!.tags, { test_type: 'journey', suite: 'login-flow' });
    assert.deepEqual(options.scenarios.journey_login!.stages, profileByName('load', {}).stages);
    assert.deepEqual(options.thresholds, scenarioThresholds('load', { login_flow_duration: ['p(95)<4000'] }));
    assert.deepEqual(metrics(s.trace), ['completed_iterations:counter', 'login_flow_duration:trend:time']);
    s.reset();
    await withRandom([0], () => s.module.default());
    assert.deepEqual(describeTrace(s.trace), [
      '::01_load_login_page GET /web/login.html',
      '::02_api_login POST /api/auth/login',
      '::03_post_login_navigation GET /web/dashboard.html',
      'sleep 0.5',
    ]);
    const checks = s.trace.flatMap((e) =>
      e.kind === 'check' && e.group === '::02_api_login' ? [e.name] : [],
    );
    assert.deepEqual(checks, ['login status 200', 'login has token', 'login succeeds', 'token returned']);
    assert.equal(adds(s.trace, 'login_flow_duration').length, 1);
  });

  it('login flow still walks all three steps when the login fails (the checks record it)', async () => {
    const s = await loadScript('k6/journeys/login-flow.ts', ENV, (_m, url) =>
      url.endsWith('/login')
        ? { status: 401, body: {} }
        : { status: 200, body: '', headers: { 'Content-Type': 'text/html' } },
    );
    s.reset();
    s.module.default();
    assert.equal(describeTrace(s.trace).filter((line) => !line.startsWith('sleep')).length, 3);
    assert.ok(s.trace.some((e) => e.kind === 'check' && e.name === 'token returned' && !e.ok));
  });

  it('authenticated user: four groups with their pauses; journey_duration is a plain Trend of the whole iteration', async () => {
    const s = await loadScript('k6/journeys/authenticated-user.ts', ENV);
    const options = s.module.options as Options;
    assert.deepEqual(options.scenarios.journey_auth!.tags, {
      test_type: 'journey',
      suite: 'authenticated-user',
    });
    assert.deepEqual(options.thresholds, scenarioThresholds('load'));
    assert.deepEqual(metrics(s.trace), ['completed_iterations:counter', 'journey_duration:trend']);
    s.reset();
    s.module.default();
    assert.deepEqual(describeTrace(s.trace), [
      '::01_login POST /api/auth/login',
      'sleep 0.3',
      '::02_fetch_users GET /api/users +auth',
      'sleep 0.5',
      '::03_browse_dashboard GET /web/dashboard.html',
      'sleep 0.5',
      '::04_browse_team GET /web/team.html',
      'sleep 0.5',
    ]);
    assert.equal(adds(s.trace, 'journey_duration').length, 1);
  });
});
