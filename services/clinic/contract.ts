// One source of truth: the upstream OpenAPI document drives request validation (ajv compiles the
// operation's requestBody schema) and, adjusted to what the clinic really answers (201/204, as the
// upstream server does), is the document served at /v3/api-docs.
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';

type Json = Record<string, unknown>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const SOURCE = new URL('./openapi.yml', import.meta.url);

export interface ValidationItem {
  message: string;
  field: string;
  rejectedValue: string;
  defaultMessage: string;
}

/** The document as served: clinic server URL, `/api/...` path keys, and the statuses the code returns. */
function servedDocument(upstream: Json): Json {
  const doc = structuredClone(upstream) as Json & { paths: Record<string, Record<string, Json>> };
  doc.servers = [{ url: '/petclinic', description: 'loadlab clinic' }];
  const paths: Record<string, Record<string, Json>> = {};
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const responses = op.responses as Record<string, Json> | undefined;
      if (!responses) continue;
      const ok = responses['200'];
      if (method === 'post' && ok) {
        delete responses['200'];
        responses['201'] = ok;
      }
      if ((method === 'put' || method === 'delete') && ok) {
        delete responses['200'];
        responses['204'] = { description: 'Done; no content.' };
      }
    }
    paths[`/api${path}`] = ops;
  }
  doc.paths = paths;
  return doc;
}

/** OpenAPI 3.0's boolean exclusiveMinimum/Maximum, as JSON Schema's numbers (what ajv reads). */
function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) out[k] = toJsonSchema(v);
  for (const [flag, bound] of [
    ['exclusiveMaximum', 'maximum'],
    ['exclusiveMinimum', 'minimum'],
  ] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else {
      delete out[flag];
    }
  }
  return out;
}

/** Input schemas: readOnly properties are ignored on input, so they are never required there. */
function forInput(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forInput);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) out[k] = forInput(v);
  // readOnly properties may sit in this object or in one of its inline allOf parts.
  const parts = [out, ...(Array.isArray(out.allOf) ? (out.allOf as Json[]) : [])];
  const readOnly = new Set(
    parts.flatMap((part) =>
      Object.entries((part.properties as Record<string, Json> | undefined) ?? {})
        .filter(([, prop]) => prop.readOnly === true)
        .map(([name]) => name),
    ),
  );
  if (Array.isArray(out.required))
    out.required = (out.required as string[]).filter((name) => !readOnly.has(name));
  return out;
}

function fieldOf(error: ErrorObject): string {
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return path ? `${path}.${missing}` : missing;
  }
  return path;
}

function defaultMessage(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'must not be null';
    case 'minLength':
    case 'maxLength':
      return `size must be between ${String((error.parentSchema as Json)?.minLength ?? 0)} and ${String((error.parentSchema as Json)?.maxLength ?? 2147483647)}`;
    case 'pattern':
      return `must match "${String(p.pattern)}"`;
    default:
      return error.message ?? 'is invalid';
  }
}

export interface Contract {
  document: Json;
  /** Validates a request body against the operation's schema; [] when valid. */
  validateBody(operationPath: string, method: string, body: unknown): ValidationItem[];
  /** Validates a response body against a component schema (tests check every response with it). */
  validateResponse(schemaName: string, body: unknown): ErrorObject[];
}

function lookup(body: unknown, field: string): unknown {
  return field
    .split('.')
    .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Json)[k] : undefined), body);
}

export function loadContract(): Contract {
  const upstream = parse(readFileSync(SOURCE, 'utf8')) as Json & {
    paths: Record<string, Record<string, Json>>;
    components: { schemas: Json };
  };
  const document = servedDocument(upstream);
  const input = new Ajv({ strict: false, allErrors: true, coerceTypes: true, unicodeRegExp: true });
  addFormats(input);
  input.addSchema({ $id: 'in', components: forInput(toJsonSchema(upstream.components)) });
  const output = new Ajv({ strict: false, allErrors: true, unicodeRegExp: true });
  addFormats(output);
  output.addSchema({ $id: 'out', components: toJsonSchema(upstream.components) });
  const rewriteRefs = (schema: unknown, id: string): unknown =>
    JSON.parse(JSON.stringify(schema).replace(/"#\/components/g, `"${id}#/components`));

  const bodyValidators = new Map<string, ValidateFunction>();
  for (const [path, ops] of Object.entries(upstream.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const schema = ((op.requestBody as Json | undefined)?.content as Json | undefined)?.[
        'application/json'
      ] as Json | undefined;
      if (schema?.schema)
        bodyValidators.set(
          `${method} ${path}`,
          input.compile(rewriteRefs(forInput(schema.schema), 'in') as Json),
        );
    }
  }
  const responseValidators = new Map<string, ValidateFunction>();

  return {
    document,
    validateBody(operationPath, method, body) {
      const validate = bodyValidators.get(`${method.toLowerCase()} ${operationPath}`);
      if (!validate) return [];
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        return [
          {
            message: 'Request body must be a JSON object',
            field: '',
            rejectedValue: String(body),
            defaultMessage: 'must be an object',
          },
        ];
      }
      if (validate(body)) return [];
      return (validate.errors ?? []).map((error) => {
        const field = fieldOf(error);
        const rejected = lookup(body, field);
        const text = defaultMessage(error);
        const rejectedValue =
          rejected === undefined || rejected === null
            ? 'null'
            : typeof rejected === 'object'
              ? JSON.stringify(rejected)
              : String(rejected);
        return {
          message: `Field '${field}' ${text} (rejected value: ${rejectedValue})`,
          field,
          rejectedValue,
          defaultMessage: text,
        };
      });
    },
    validateResponse(schemaName, body) {
      let validate = responseValidators.get(schemaName);
      if (!validate) {
        validate = output.compile({ $ref: `out#/components/schemas/${schemaName}` });
        responseValidators.set(schemaName, validate);
      }
      return validate(body) ? [] : (validate.errors ?? []);
    },
  };
}
