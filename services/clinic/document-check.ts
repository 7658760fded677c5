// Test support: checks a real HTTP response against the OpenAPI document the clinic serves. The
// status must be documented for the operation, the Content-Type must be one the document lists and
// the body must match its schema (an undocumented body must be empty). A method the path lacks must
// be a 405 problem; a path the document lacks must be a 404 problem (or 401 before authentication).
import assert from 'node:assert/strict';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { toJsonSchema } from './contract.js';
import type { Json } from './document.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export interface CheckedResponse {
  status: number;
  text: string;
  body: unknown;
  headers: Record<string, string | undefined>;
  req: { method: string; path: string };
}

interface Template {
  key: string;
  pattern: RegExp;
}

export class DocumentCheck {
  /** `METHOD /api/path STATUS` for every response checked, so a test can assert what it covered. */
  readonly covered = new Set<string>();
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: Template[];
  private readonly paths: Record<string, Record<string, Json>>;

  constructor(
    private readonly document: Json,
    private readonly base = '/petclinic',
  ) {
    this.paths = document.paths as Record<string, Record<string, Json>>;
    this.ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'doc', components: toJsonSchema(document.components) });
    // Literal paths before templated ones, so /api/owners/{ownerId} never shadows /api/v2/owners.
    this.templates = Object.keys(this.paths)
      .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))
      .map((key) => ({
        key,
        pattern: new RegExp(`^${key.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      }));
  }

  private validator(schema: Json): ValidateFunction {
    const text = JSON.stringify(schema).replace(/"#\/components/g, '"doc#/components');
    let validate = this.validators.get(text);
    if (!validate) {
      validate = this.ajv.compile(JSON.parse(text) as Json);
      this.validators.set(text, validate);
    }
    return validate;
  }

  private conforms(schema: Json, body: unknown, what: string): void {
    const validate = this.validator(toJsonSchema(schema) as Json);
    assert.ok(
      validate(body),
      `${what}: ${this.ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 300)}`,
    );
  }

  private problem(res: CheckedResponse, what: string): void {
    assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/, what);
    this.conforms({ $ref: '#/components/schemas/ProblemDetail' }, res.body, what);
  }

  /** Throws an AssertionError when the response is not what the served document describes. */
  check(res: CheckedResponse): void {
    const method = res.req.method.toLowerCase();
    const path = res.req.path.split('?')[0]!;
    const what = `${res.req.method} ${path} -> ${res.status}`;
    if (!path.startsWith(`${this.base}/`)) return; // /metrics and the like are outside the API
    const relative = path.slice(this.base.length);
    const template = this.templates.find((t) => t.pattern.test(relative));
    if (!template) {
      const secured = Array.isArray(this.document.security) && res.status === 401;
      if (!secured) {
        assert.equal(res.status, 404, `${what}: undocumented path`);
        this.problem(res, what);
      }
      this.covered.add(`${res.req.method} (undocumented) ${res.status}`);
      return;
    }
    const item = this.paths[template.key]!;
    const op = item[method] ?? (method === 'head' ? item.get : undefined);
    if (!op) {
      if (method === 'options') assert.equal(res.status, 204, what);
      else if (!(res.status === 401 && this.document.security)) {
        assert.equal(res.status, 405, `${what}: method not in the document`);
        this.problem(res, what);
      }
      assert.ok(res.status === 401 || res.headers.allow, `${what}: Allow header`);
      return;
    }
    this.covered.add(`${res.req.method} ${template.key} ${res.status}`);
    const responses = op.responses as Record<string, Json>;
    const response = responses[String(res.status)] ?? responses.default;
    assert.ok(response, `${what}: status not documented (documented: ${Object.keys(responses).join(', ')})`);
    for (const name of Object.keys((response.headers as Json | undefined) ?? {}))
      assert.ok(res.headers[name.toLowerCase()], `${what}: documented header ${name} missing`);
    const content = response.content as Record<string, { schema: Json }> | undefined;
    if (!content || method === 'head') {
      assert.equal(res.text ?? '', '', `${what}: a body where the document has none`);
      return;
    }
    const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim();
    const media = content[type];
    assert.ok(media, `${what}: Content-Type ${type} not among ${Object.keys(content).join(', ')}`);
    this.conforms(media.schema, res.body, what);
  }
}
