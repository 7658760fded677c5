import assert from 'node:assert/strict';
import { loadContract } from './contract.js';
import { DocumentCheck, type CheckedResponse } from './document-check.js';

const check = new DocumentCheck(loadContract().document(false));
const json = { 'content-type': 'application/json; charset=utf-8' };
const problemType = { 'content-type': 'application/problem+json; charset=utf-8' };
const owner = {
  firstName: 'A',
  lastName: 'B',
  address: 'x',
  city: 'y',
  telephone: '6085550000',
  id: 1,
  pets: [],
};
const problem = {
  type: 'http://x/y',
  title: 'T',
  status: 404,
  detail: 'd',
  timestamp: new Date().toISOString(),
  schemaValidationErrors: [],
};
const res = (
  method: string,
  path: string,
  status: number,
  body: unknown,
  headers: Record<string, string> = json,
): CheckedResponse => ({
  status,
  body,
  text: body === undefined ? '' : JSON.stringify(body),
  headers,
  req: { method, path },
});

describe('DocumentCheck (the response check the clinic tests rely on)', () => {
  it('accepts what the document describes', () => {
    check.check(res('GET', '/petclinic/api/owners/1', 200, owner));
    check.check(res('GET', '/petclinic/api/owners/9', 404, problem, problemType));
    check.check(res('PUT', '/petclinic/api/owners/1', 204, undefined, {}));
  });

  it('refuses bodies, statuses, types and paths the document does not describe', () => {
    const { telephone, ...noPhone } = owner;
    void telephone;
    assert.throws(() => check.check(res('GET', '/petclinic/api/owners/1', 200, noPhone)), /telephone/);
    assert.throws(() => check.check(res('GET', '/petclinic/api/owners/1', 200, { ...owner, id: 'x' })));
    assert.throws(() => check.check(res('GET', '/petclinic/api/owners/1', 201, owner)), /not documented/);
    assert.throws(() => check.check(res('GET', '/petclinic/api/owners/1', 404, problem)), /Content-Type/);
    assert.throws(() => check.check(res('GET', '/petclinic/api/owners/1', 404, { title: 'x' }, problemType)));
    assert.throws(() => check.check(res('PUT', '/petclinic/api/owners/1', 204, owner)), /body/);
    assert.throws(() => check.check(res('POST', '/petclinic/api/owners', 201, owner)), /Location/);
    assert.throws(() => check.check(res('GET', '/petclinic/api/nope', 200, owner)), /undocumented path/);
    assert.throws(
      () => check.check(res('PATCH', '/petclinic/api/owners', 404, problem, problemType)),
      /not in the document/,
    );
  });
});
