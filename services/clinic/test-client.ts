// Test support: supertest against a clinic app where every response is checked against the
// document that very app serves (DocumentCheck), on top of whatever the test itself expects.
import request from 'supertest';
import type { ClinicApp } from './app.js';
import { DocumentCheck, type CheckedResponse } from './document-check.js';

export const API = '/petclinic/api';

export interface CheckedClient {
  get(url: string): request.Test;
  post(url: string): request.Test;
  put(url: string): request.Test;
  delete(url: string): request.Test;
  patch(url: string): request.Test;
  head(url: string): request.Test;
  options(url: string): request.Test;
  check: DocumentCheck;
}

export function checkedClient(app: ClinicApp): CheckedClient {
  const secured = app.locals.securityEnabled === true;
  const check = new DocumentCheck(app.locals.contract.document(secured));
  const agent = request(app);
  const wrap = (test: request.Test) =>
    test.expect((res) => check.check(res as unknown as CheckedResponse & request.Response));
  return {
    get: (url) => wrap(agent.get(url)),
    post: (url) => wrap(agent.post(url)),
    put: (url) => wrap(agent.put(url)),
    delete: (url) => wrap(agent.delete(url)),
    patch: (url) => wrap(agent.patch(url)),
    head: (url) => wrap(agent.head(url)),
    options: (url) => wrap(agent.options(url)),
    check,
  };
}
