// The suite's helper for simulating errors: the sandbox's /api/errors/404 and /api/errors/422 answer
// those errors on purpose. Each request marks its status as expected (k6's per-request
// responseCallback with http.expectedStatuses), so http_req_failed keeps meaning "went wrong without
// being asked to", while checks still verify the error answer itself.
import { check } from 'k6';
import http from 'k6/http';
import { SANDBOX_FAULTS } from './requests.js';
import type { Response } from './requests.js';

export const SIMULATED_STATUSES = [404, 422] as const;
export type SimulatedStatus = (typeof SIMULATED_STATUSES)[number];

/** GET /api/errors/{status}: the error on purpose, not counted as a failed request. */
export function simulateError(baseUrl: string, status: SimulatedStatus): Response {
  const path = `/api/errors/${status}`;
  const res = http.get(`${baseUrl}${path}`, {
    headers: SANDBOX_FAULTS,
    tags: { endpoint: 'errors', name: `GET ${path}` },
    responseCallback: http.expectedStatuses(status),
  });
  check(res, {
    [`simulated ${status} answered`]: (r) => r.status === status,
    'simulated error is problem+json': (r) =>
      String(r.headers['Content-Type'] ?? '').includes('application/problem+json'),
  });
  return res;
}
