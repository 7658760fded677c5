// The objects `kubectl apply` gets for one distributed run: k6-operator's TestRun (k6.io/v1alpha1), the
// ConfigMap holding the suite bundle (unless the image's own copy runs), and the Secret the runners read
// credentials and the InfluxDB token from. Pure: values in, plain objects out (manifests.ts writes them).
import { basename } from 'node:path';
import type { ManifestArgs } from './manifest-args.js';

/** Where stack/k6.Dockerfile copies `npm run build:k6`'s dist/k6, and where the image's k6 writes results. */
export const IMAGE_SUITE_DIR = '/home/k6/suite';
export const IMAGE_RESULTS_DIR = '/home/k6/results';
export const SECRET_NAME = 'loadlab-k6';
/** The group of the image's k6 user (`adduser -u 12345` in stack/k6.Dockerfile). */
export const IMAGE_GID = 12345;

/** Secret keys and the environment variables (from .env) their values come from. */
export const SECRET_SOURCES = {
  DEMO_EMAIL: 'DEMO_EMAIL',
  DEMO_PASSWORD: 'DEMO_PASSWORD',
  ADMIN_USER: 'ADMIN_USER',
  ADMIN_PASSWORD: 'ADMIN_PASSWORD',
  K6_INFLUXDB_TOKEN: 'INFLUXDB_ADMIN_TOKEN',
} as const;
export type SecretKey = keyof typeof SECRET_SOURCES;

// The operator adds `-initializer` and `-service-<n>` to the name, and Services are DNS labels (63).
const MAX_NAME = 63 - '-service-100'.length;

export interface Bundle {
  js: string;
  map?: string;
}

export interface ManifestInputs {
  bundle?: Bundle;
  /** Secret values by key; omitted with --no-secret (the Secret is then made by hand, see README). */
  secretValues?: Record<SecretKey, string>;
  influxOrg: string;
  influxBucket: string;
  testid: string;
}

export interface Manifest {
  file: string;
  object: Record<string, unknown>;
}

export function testRunName(args: Pick<ManifestArgs, 'scenario' | 'profile'>): string {
  const name = `loadlab-${basename(args.scenario)}-${args.profile}`;
  if (name.length > MAX_NAME) throw new Error(`TestRun name ${name} is longer than ${MAX_NAME} characters`);
  return name;
}

export function bundleConfigMapName(scenario: string): string {
  return `loadlab-bundle-${basename(scenario)}`;
}

/** `20261124T185000Z-api-health`, the form compose.sh and native/stream.sh give their runs. */
export function defaultTestid(scenario: string, now: Date): string {
  return `${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z')}-${basename(scenario)}`;
}

/**
 * k6's flags for every runner. The operator adds the execution segment, `--tag instance_id=<n>` and
 * `--tag testrun_name=<name>` itself. `-o` and its value stay two words: the operator drops exactly
 * `-o X` / `--out X` from the `k6 archive` its initializer runs (archive has no --out), not `--out=X`.
 */
export function k6Arguments(args: ManifestArgs, testid: string): string {
  return [
    `-e LT_PROFILE=${args.profile}`,
    `--tag testid=${testid}`,
    `-o xk6-influxdb=${args.influxdbUrl}`,
  ].join(' ');
}

const PART_OF = { 'app.kubernetes.io/part-of': 'loadlab' };

function metadata(name: string, args: ManifestArgs, labels: Record<string, string>): Record<string, unknown> {
  return {
    name,
    ...(args.namespace ? { namespace: args.namespace } : {}),
    labels: { ...PART_OF, ...labels },
  };
}

const fromSecret = (key: SecretKey) => ({
  name: key,
  valueFrom: { secretKeyRef: { name: SECRET_NAME, key } },
});

function runnerEnv(args: ManifestArgs, inputs: ManifestInputs): Record<string, unknown>[] {
  return [
    { name: 'BASE_URL', value: args.baseUrl },
    { name: 'CLINIC_BASE_URL', value: args.clinicUrl },
    { name: 'CLINIC_SECURE_BASE_URL', value: args.clinicSecureUrl },
    fromSecret('DEMO_EMAIL'),
    fromSecret('DEMO_PASSWORD'),
    fromSecret('ADMIN_USER'),
    fromSecret('ADMIN_PASSWORD'),
    // xk6-output-influxdb reads these; the address is in the -o argument.
    { name: 'K6_INFLUXDB_ORGANIZATION', value: inputs.influxOrg },
    { name: 'K6_INFLUXDB_BUCKET', value: inputs.influxBucket },
    fromSecret('K6_INFLUXDB_TOKEN'),
    // Each pod's own name: k6/lib/summary.ts puts it in the summary file names (shared volumes).
    { name: 'LT_INSTANCE', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
  ];
}

function script(args: ManifestArgs): Record<string, unknown> {
  if (args.script === 'image') return { localFile: `${IMAGE_SUITE_DIR}/${args.scenario}.js` };
  return { configMap: { name: bundleConfigMapName(args.scenario), file: `${basename(args.scenario)}.js` } };
}

function runner(args: ManifestArgs, inputs: ManifestInputs): Record<string, unknown> {
  const resources = { cpu: args.cpu, memory: args.memory };
  const pod: Record<string, unknown> = {
    image: args.image,
    // A tag other than latest would default to IfNotPresent too; said here because `kind load` needs it.
    imagePullPolicy: 'IfNotPresent',
    env: runnerEnv(args, inputs),
    // Requests equal to limits (Guaranteed QoS): a load generator starved of CPU measures itself.
    resources: { requests: resources, limits: resources },
  };
  if (args.resultsClaim) {
    pod.volumes = [{ name: 'results', persistentVolumeClaim: { claimName: args.resultsClaim } }];
    pod.volumeMounts = [{ name: 'results', mountPath: IMAGE_RESULTS_DIR }];
    // The image runs k6 as uid/gid 12345 (stack/k6.Dockerfile); a fresh volume is root's until fsGroup
    // hands it to that group, and k6 could not write its summaries there.
    pod.securityContext = { fsGroup: IMAGE_GID };
  }
  return pod;
}

export function buildManifests(args: ManifestArgs, inputs: ManifestInputs): Manifest[] {
  const name = testRunName(args);
  const manifests: Manifest[] = [];
  if (args.script === 'configmap') {
    if (!inputs.bundle) throw new Error('the configmap script source needs the bundle');
    const file = `${basename(args.scenario)}.js`;
    manifests.push({
      file: 'configmap.yaml',
      object: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: metadata(bundleConfigMapName(args.scenario), args, {
          'loadlab/scenario': basename(args.scenario),
        }),
        // The source map beside the bundle: k6 reads it, so stack traces name the TypeScript lines.
        data: {
          [file]: inputs.bundle.js,
          ...(inputs.bundle.map ? { [`${file}.map`]: inputs.bundle.map } : {}),
        },
      },
    });
  }
  if (inputs.secretValues) {
    manifests.push({
      file: 'secret.yaml',
      object: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: metadata(SECRET_NAME, args, {}),
        type: 'Opaque',
        stringData: { ...inputs.secretValues },
      },
    });
  }
  const spec: Record<string, unknown> = {
    parallelism: args.parallelism,
    script: script(args),
    arguments: k6Arguments(args, inputs.testid),
    runner: runner(args, inputs),
  };
  if (args.separate) spec.separate = true;
  if (args.cleanup) spec.cleanup = args.cleanup;
  manifests.push({
    file: 'testrun.yaml',
    object: {
      apiVersion: 'k6.io/v1alpha1',
      kind: 'TestRun',
      metadata: metadata(name, args, {
        'loadlab/scenario': basename(args.scenario),
        'loadlab/profile': args.profile,
      }),
      spec,
    },
  });
  return manifests;
}
