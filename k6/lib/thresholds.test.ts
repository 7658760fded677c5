import assert from 'node:assert/strict';
import { CUSTOM_THRESHOLDS, GATE_THRESHOLDS, scenarioThresholds, thresholdsFor } from './thresholds.js';

describe('k6 thresholds', () => {
  it('has the spec table for smoke (and ci)', () => {
    const smoke = {
      http_req_failed: ['rate<0.005'],
      http_req_duration: ['p(95)<1500', 'avg<800'],
      'http_req_duration{endpoint:health}': ['p(95)<500'],
      'http_req_duration{endpoint:users}': ['p(95)<1500'],
      'http_req_duration{endpoint:auth_login}': ['p(95)<2000'],
      checks: ['rate>0.99'],
    };
    assert.deepEqual(thresholdsFor('smoke'), smoke);
    assert.deepEqual(thresholdsFor('ci'), smoke);
  });

  it('has the spec table for load, stress, spike, breakpoint and soak', () => {
    assert.deepEqual(thresholdsFor('load'), {
      http_req_failed: ['rate<0.01'],
      http_req_duration: ['p(95)<2500', 'p(99)<6000'],
      'http_req_duration{endpoint:health}': ['p(95)<800'],
      'http_req_duration{endpoint:users}': ['p(95)<2000'],
      'http_req_duration{endpoint:auth_login}': ['p(95)<3000'],
      checks: ['rate>0.98'],
    });
    const stress = {
      http_req_failed: ['rate<0.05'],
      http_req_duration: ['p(95)<5000'],
      checks: ['rate>0.95'],
    };
    assert.deepEqual(thresholdsFor('stress'), stress);
    assert.deepEqual(thresholdsFor('spike'), stress);
    assert.deepEqual(thresholdsFor('breakpoint'), stress);
    assert.deepEqual(thresholdsFor('soak'), {
      http_req_failed: ['rate<0.005'],
      http_req_duration: ['p(95)<2500', 'avg<1200'],
      checks: ['rate>0.99'],
    });
  });

  it('has the custom metric thresholds of the spec', () => {
    assert.deepEqual(CUSTOM_THRESHOLDS, {
      login_duration: ['p(95)<2000'],
      login_errors: ['rate<0.01'],
      users_list_duration: ['p(95)<2000'],
      login_flow_duration: ['p(95)<4000'],
      spike_failures: ['rate<0.10'],
      browser_page_load: ['p(95)<5000'],
    });
  });

  it('every scenario threshold set carries the gate: completed_iterations count>0', () => {
    assert.deepEqual(GATE_THRESHOLDS, { completed_iterations: ['count>0'] });
    assert.deepEqual(scenarioThresholds('load', { login_errors: ['rate<0.01'] }), {
      ...thresholdsFor('load'),
      login_errors: ['rate<0.01'],
      completed_iterations: ['count>0'],
    });
  });

  it('adds scenario thresholds without changing the shared sets', () => {
    const merged = thresholdsFor('smoke', { checks: ['rate==1'], login_errors: ['rate<0.01'] });
    assert.deepEqual(merged.checks, ['rate>0.99', 'rate==1']);
    assert.deepEqual(merged.login_errors, ['rate<0.01']);
    assert.deepEqual(thresholdsFor('smoke').checks, ['rate>0.99']);
  });
});
