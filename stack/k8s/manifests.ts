// `npm run k8s:manifests -- <scenario> --parallelism N --profile P [...]` (after `npm run build:k6`):
// writes the manifests of one distributed run on k6-operator to results/k8s/<TestRun name>/, ready for
// `kubectl apply -f`. Bad arguments, a missing bundle or secret, or a runner that would get no VU: one
// line, exit 2 (a bundle whose init fails: its message, exit 1).
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { suiteEntryPoints } from '../../k6/build.js';
import { missingVariables } from '../../scripts/lib/missing-variables.js';
import { isEntryPoint, loadDotEnv } from '@loadlab/services/start-and-stop';
import { runnersWithVus, scenarioVus, totalVus } from './bundle-vus.js';
import { parseManifestArgs, UsageError, type ManifestArgs } from './manifest-args.js';
import {
  buildManifests,
  defaultTestid,
  SECRET_SOURCES,
  testRunName,
  type Bundle,
  type SecretKey,
} from './testrun.js';

/** Where `npm run build:k6` writes the bundles (tests bundle elsewhere). */
const BUNDLE_DIR = 'dist/k6';
const FILES = ['configmap.yaml', 'secret.yaml', 'testrun.yaml'];

/** Suite scenarios as compose.sh names them: k6/scenarios/smoke/api-health.ts -> scenarios/smoke/api-health. */
export function suiteScenarios(): string[] {
  return suiteEntryPoints().map((path) => path.replace(/^k6\//, '').replace(/\.ts$/, ''));
}

function readBundle(js: string): Bundle {
  if (!existsSync(js)) throw new UsageError(`${js} is missing: run npm run build:k6 first`);
  const map = `${js}.map`;
  return { js: readFileSync(js, 'utf8'), map: existsSync(map) ? readFileSync(map, 'utf8') : undefined };
}

function secretValues(env: NodeJS.ProcessEnv): Record<SecretKey, string> {
  const withDefaults: NodeJS.ProcessEnv = { ADMIN_USER: 'admin', ...env };
  const missing = missingVariables(Object.values(SECRET_SOURCES), withDefaults);
  if (missing.length > 0)
    throw new UsageError(
      `missing ${missing.join(', ')} for the Secret (set them in .env: npm run env:init; or pass --no-secret and create it yourself)`,
    );
  const values = {} as Record<SecretKey, string>;
  for (const [key, variable] of Object.entries(SECRET_SOURCES))
    values[key as SecretKey] = withDefaults[variable]!;
  return values;
}

async function refuseIdleRunners(args: ManifestArgs, bundlePath: string): Promise<number> {
  const scenarios = await scenarioVus(bundlePath, args.profile);
  const idle = args.parallelism - runnersWithVus(scenarios, args.parallelism);
  if (idle > 0)
    throw new UsageError(
      `--parallelism ${args.parallelism} is too many for ${args.scenario} under profile ${args.profile}: ` +
        `k6 deals each scenario's VUs out one runner at a time and its largest scenario has ` +
        `${Math.max(...scenarios.map((s) => s.maxVus))} VUs, so ${idle} runner(s) would have none`,
    );
  return totalVus(scenarios);
}

export async function generate(
  argv: string[],
  env: NodeJS.ProcessEnv,
  { now = new Date(), bundleDir = BUNDLE_DIR } = {},
): Promise<string> {
  const args = parseManifestArgs(argv, suiteScenarios());
  const bundlePath = join(bundleDir, `${args.scenario}.js`);
  const bundle = readBundle(bundlePath);
  const vus = await refuseIdleRunners(args, bundlePath);
  const testid = args.testid ?? defaultTestid(args.scenario, now);
  const manifests = buildManifests(args, {
    bundle: args.script === 'configmap' ? bundle : undefined,
    secretValues: args.secret ? secretValues(env) : undefined,
    influxOrg: env.INFLUXDB_ORG || 'loadlab',
    influxBucket: env.INFLUXDB_BUCKET || 'k6',
    testid,
  });
  const name = testRunName(args);
  const dir = args.outDir ?? join('results', 'k8s', name);
  mkdirSync(dir, { recursive: true });
  // A file of an earlier call that this one does not write would still be applied by `kubectl apply -f`.
  for (const file of FILES) rmSync(join(dir, file), { force: true });
  for (const { file, object } of manifests) {
    const path = join(dir, file);
    writeFileSync(path, stringify(object, { lineWidth: 0, aliasDuplicateObjects: false }), {
      mode: file === 'secret.yaml' ? 0o600 : 0o644,
    });
    if (file === 'secret.yaml') chmodSync(path, 0o600);
  }
  return (
    `k8s:manifests: wrote ${manifests.map((m) => m.file).join(', ')} to ${dir}: TestRun ${name}, ` +
    `${args.parallelism} runner(s) sharing ${vus} VUs, testid=${testid}; next: kubectl apply -f ${dir}`
  );
}

async function main(): Promise<number> {
  loadDotEnv();
  try {
    console.log(await generate(process.argv.slice(2), process.env));
    return 0;
  } catch (error) {
    // A bundle whose init throws is the user's to fix too: its message, on one line, not a stack.
    const message = error instanceof Error ? error.message : String(error);
    console.error(`k8s:manifests: ${message.split('\n')[0]}`);
    return error instanceof UsageError ? 2 : 1;
  }
}

if (isEntryPoint(import.meta.url)) process.exit(await main());
