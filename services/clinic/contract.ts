// One source of truth: the document the clinic serves (document.ts, derived from upstream's
// openapi.yml) is also what validates requests. ajv compiles each operation's path/query
// parameters and JSON body from it; a route the document does not describe cannot be registered.
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { clinicDocument, type Json } from './document.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const SOURCE = new URL('./openapi.yml', import.meta.url);
const INT32_MAX = 2_147_483_647;

export interface ValidationItem {
  message: string;
  field: string;
  rejectedValue: string;
  defaultMessage: string;
}

/** OpenAPI 3.0's boolean exclusiveMinimum/Maximum, as JSON Schema's numbers (what ajv reads). */
export function toJsonSchema(schema: unknown): unknown {
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

/** Bean-validation-like wording, as upstream's schemaValidationErrors carry. */
function defaultMessage(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  const parent = (error.parentSchema ?? {}) as Json;
  switch (error.keyword) {
    case 'required':
      return 'must not be null';
    case 'minLength':
    case 'maxLength':
      return `size must be between ${String(parent.minLength ?? 0)} and ${String(parent.maxLength ?? INT32_MAX)}`;
    case 'minItems':
      return `must contain at least ${String(p.limit)} item(s)`;
    case 'pattern':
      return `must match "${String(p.pattern)}"`;
    case 'minimum':
      return `must be greater than or equal to ${String(p.limit)}`;
    case 'maximum':
      return `must be less than or equal to ${String(p.limit)}`;
    case 'type':
      return `must be of type ${String(p.type)}`;
    default:
      return error.message ?? 'is invalid';
  }
}

function lookup(body: unknown, field: string): unknown {
  return field
    .split('.')
    .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Json)[k] : undefined), body);
}

/** Dotted paths of the null values in a body: ajv's coercion turns them into "" or 0 before it
 * reports them, and the client must hear "must not be null" about what it sent. */
function nullFields(body: unknown, prefix = '', out = new Set<string>()): Set<string> {
  if (body === null || typeof body !== 'object') return out;
  for (const [key, value] of Object.entries(body)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value === null) out.add(path);
    else nullFields(value, path, out);
  }
  return out;
}

function items(
  validate: ValidateFunction,
  raw: (field: string) => unknown,
  nulls: Set<string> = new Set(),
): ValidationItem[] {
  return (validate.errors ?? []).map((error) => {
    const field = fieldOf(error);
    const wasNull = nulls.has(field);
    const rejected = wasNull ? null : raw(field);
    const text = wasNull ? 'must not be null' : defaultMessage(error);
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
}

export type Args = Record<string, unknown>;

export type ParamResult =
  | { ok: true; args: Args }
  | { ok: false; notFound: true }
  | { ok: false; notFound: false; errors: ValidationItem[] };

export interface OperationContract {
  /** Path and query parameters, typed and defaulted from the document; ids past int32 are not found. */
  params(path: Record<string, string>, query: Record<string, unknown>): ParamResult;
  /** The JSON body against the operation's schema (readOnly fields ignored); [] when valid. */
  body(body: unknown): ValidationItem[];
  hasBody: boolean;
  /** Whether any parameter comes from the query string. */
  usesQuery: boolean;
}

export interface Contract {
  /** The document an open (false) or secured (true) instance serves. */
  document(secured: boolean): Json;
  /** The compiled operation for `/api/...` path keys as in the document, e.g. `/api/owners/{ownerId}`. */
  operation(method: string, path: string): OperationContract | undefined;
}

interface ParamSpec {
  name: string;
  in: 'path' | 'query';
  integer: boolean;
}

function compileOperation(ajvIn: Ajv, ajvParams: Ajv, op: Json): OperationContract {
  const specs: ParamSpec[] = [];
  const properties: Json = {};
  const required: string[] = [];
  for (const p of (op.parameters as Json[] | undefined) ?? []) {
    const schema = toJsonSchema(p.schema ?? {}) as Json;
    specs.push({ name: String(p.name), in: p.in as 'path' | 'query', integer: schema.type === 'integer' });
    properties[String(p.name)] = schema;
    if (p.required) required.push(String(p.name));
  }
  const validateParams =
    specs.length > 0 ? ajvParams.compile({ type: 'object', properties, required }) : undefined;
  const content = ((op.requestBody as Json | undefined)?.content as Json | undefined)?.[
    'application/json'
  ] as Json | undefined;
  const validateBody = content?.schema
    ? ajvIn.compile(
        JSON.parse(JSON.stringify(forInput(content.schema)).replace(/"#\/components/g, '"in#/components')),
      )
    : undefined;

  return {
    hasBody: validateBody !== undefined,
    usesQuery: specs.some((spec) => spec.in === 'query'),
    params(path, query) {
      if (!validateParams) return { ok: true, args: {} };
      const args: Args = {};
      const raw: Args = {};
      for (const spec of specs) {
        const value = spec.in === 'path' ? path[spec.name] : query[spec.name];
        if (value === undefined) continue;
        raw[spec.name] = value;
        // Integers only from plain decimal digits: Number() would also take '1e3', ' 1' or '0x1'.
        if (spec.integer && typeof value === 'string' && /^-?\d+$/.test(value)) {
          const n = Number(value);
          // Digits past int32 can never be an id: the resource does not exist (404, as the spec asks).
          if (spec.in === 'path' && n > INT32_MAX) return { ok: false, notFound: true };
          args[spec.name] = n;
        } else args[spec.name] = value;
      }
      if (validateParams(args)) return { ok: true, args };
      return { ok: false, notFound: false, errors: items(validateParams, (f) => raw[f]) };
    },
    body(body) {
      if (!validateBody) return [];
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        return [
          {
            message: 'Request body must be a JSON object',
            field: '',
            rejectedValue: body === undefined ? 'null' : JSON.stringify(body),
            defaultMessage: 'must be an object',
          },
        ];
      }
      // Taken before validation, which coerces in place (the body's depth is bounded by then).
      const nulls = nullFields(body);
      if (validateBody(body)) return [];
      return items(validateBody, (f) => lookup(body, f), nulls);
    },
  };
}

function newAjv(options: ConstructorParameters<typeof Ajv>[0]): Ajv {
  // verbose: errors carry their parentSchema, which the size messages quote.
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: true, verbose: true, ...options });
  addFormats(ajv);
  return ajv;
}

/** The contract from upstream's document (openapi.yml here unless another one is given, as tests do). */
export function loadContract(upstream: Json = parse(readFileSync(SOURCE, 'utf8')) as Json): Contract {
  const documents = { open: clinicDocument(upstream, false), secured: clinicDocument(upstream, true) };
  // Validation never depends on the security mode; it is compiled from the open document.
  const served = documents.open as Json & {
    paths: Record<string, Record<string, Json>>;
    components: Json;
  };
  // Bodies: numeric strings are coerced as upstream's Jackson does ("type":{"id":"1"}).
  const ajvIn = newAjv({ coerceTypes: true });
  ajvIn.addSchema({ $id: 'in', components: forInput(toJsonSchema(served.components)) });
  // Parameters: defaults filled in (page 0, size 20); integers converted beforehand, strictly.
  const ajvParams = newAjv({ useDefaults: true });
  const operations = new Map<string, OperationContract>();
  for (const [path, item] of Object.entries(served.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (op && typeof op === 'object' && 'responses' in op)
        operations.set(`${method} ${path}`, compileOperation(ajvIn, ajvParams, op));
    }
  }
  return {
    document: (secured) => (secured ? documents.secured : documents.open),
    operation: (method, path) => operations.get(`${method.toLowerCase()} ${path}`),
  };
}
