// Checks a TestRun against the CRD schema of the pinned k6-operator release (schema/SOURCE.md) as the
// API server would with `kubectl apply --validate=strict` (kubectl's default): the OpenAPI schema, plus
// no field the schema does not know (the server would drop it silently, or refuse it under strict).
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

const SCHEMA_FILE = new URL('./schema/testrun-v1alpha1.openapi.json', import.meta.url);

type Node = Record<string, unknown>;

/** A copy of the schema in which every object with declared properties refuses any other property. */
export function strictSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictSchema);
  if (!node || typeof node !== 'object') return node;
  const copy: Node = {};
  for (const [key, value] of Object.entries(node as Node)) {
    // `properties` maps field names to schemas: walk the schemas, keep the names.
    copy[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as Node).map(([k, v]) => [k, strictSchema(v)]))
        : strictSchema(value);
  }
  if (
    copy.properties &&
    copy.additionalProperties === undefined &&
    copy['x-kubernetes-preserve-unknown-fields'] !== true
  )
    copy.additionalProperties = false;
  return copy;
}

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (compiled) return compiled;
  // strict: false lets ajv pass over the x-kubernetes-* annotations (list types, int-or-string markers).
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv); // int32, int64 and date-time appear in the schema
  compiled = ajv.compile(strictSchema(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'))) as object);
  return compiled;
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Problems of a TestRun object, one readable line each; empty when the API server would take it. */
export function testRunProblems(testRun: unknown): string[] {
  const validate = validator();
  const problems = validate(testRun)
    ? []
    : (validate.errors ?? []).map(
        (e: ErrorObject) =>
          `${e.instancePath || '/'} ${e.message ?? ''}${e.params && 'additionalProperty' in e.params ? `: ${String(e.params.additionalProperty)}` : ''}`,
      );
  // The schema leaves metadata to the API server, which checks the name and requires apiVersion/kind.
  const object = testRun as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } };
  if (object.apiVersion !== 'k6.io/v1alpha1') problems.push(`/apiVersion is not k6.io/v1alpha1`);
  if (object.kind !== 'TestRun') problems.push('/kind is not TestRun');
  const name = object.metadata?.name;
  if (typeof name !== 'string' || !DNS_SUBDOMAIN.test(name) || name.length > 253)
    problems.push(`/metadata/name ${JSON.stringify(name)} is not a DNS subdomain`);
  return problems;
}
