// `npm run k8s:manifests -- <scenario> --parallelism N --profile P [...]`: the command line, parsed and
// checked. Every refusal is a UsageError whose message is the one line the command prints.
import { splitInlineValue } from '../../runner/cli/args.js';
import { PROFILE_NAMES, type ProfileName } from '../../k6/lib/profiles.js';

export class UsageError extends Error {}

export type ScriptSource = 'configmap' | 'image';

export interface ManifestArgs {
  /** Suite path without extension, e.g. scenarios/smoke/api-health (as compose.sh names scenarios). */
  scenario: string;
  parallelism: number;
  profile: ProfileName;
  separate: boolean;
  cleanup?: 'post';
  script: ScriptSource;
  image: string;
  namespace?: string;
  baseUrl: string;
  clinicUrl: string;
  clinicSecureUrl: string;
  influxdbUrl: string;
  cpu: string;
  memory: string;
  testid?: string;
  resultsClaim?: string;
  secret: boolean;
  outDir?: string;
}

export const USAGE =
  'usage: npm run k8s:manifests -- <scenario> --parallelism N --profile P [--separate] [--cleanup post] ' +
  '[--script configmap|image] [--image I] [--namespace NS] [--base-url U] [--clinic-url U] ' +
  '[--clinic-secure-url U] [--influxdb-url U] [--cpu Q] [--memory Q] [--testid ID] [--results-claim PVC] ' +
  '[--no-secret] [--out DIR]';

/** Defaults name the compose services, as the compose k6 service does; a cluster passes its own URLs. */
const DEFAULTS = {
  script: 'configmap' as ScriptSource,
  image: 'loadlab-k6:local',
  baseUrl: 'http://sandbox:5050',
  clinicUrl: 'http://clinic:9966/petclinic/api',
  clinicSecureUrl: 'http://clinic-secure:9967/petclinic/api',
  influxdbUrl: 'http://influxdb:8086',
  cpu: '1',
  memory: '1Gi',
};

/** The operator splits `arguments` on whitespace and, for an image's local file, runs it through `sh -c`. */
const ARGUMENT_SAFE = /^[\w.:/@%+=,-]+$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
// Kubernetes resource quantities: 500m, 1, 1.5, 512Mi, 2Gi, 1e3.
const QUANTITY = /^(\d+(\.\d+)?|\.\d+)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei|e\d+)?$/;
/** Runner pods per test: the operator makes a Job and a Service each; more is a cluster-sized mistake. */
export const MAX_PARALLELISM = 100;

const VALUE_FLAGS = [
  '--parallelism',
  '--profile',
  '--cleanup',
  '--script',
  '--image',
  '--namespace',
  '--base-url',
  '--clinic-url',
  '--clinic-secure-url',
  '--influxdb-url',
  '--cpu',
  '--memory',
  '--testid',
  '--results-claim',
  '--out',
] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];

function url(value: string, flag: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new UsageError(`${flag} "${value}" is not a URL (e.g. http://sandbox:5050)`);
  }
  if (!/^https?:$/.test(parsed.protocol) || !ARGUMENT_SAFE.test(value))
    throw new UsageError(`${flag} "${value}" must be an http(s) URL without spaces or quotes`);
  return value.replace(/\/+$/, '');
}

function dnsLabel(value: string, flag: string): string {
  if (!DNS_LABEL.test(value) || value.length > 63)
    throw new UsageError(`${flag} "${value}" must be a DNS label (a-z, 0-9 and -, at most 63 characters)`);
  return value;
}

function quantity(value: string, flag: string): string {
  if (!QUANTITY.test(value) || Number.parseFloat(value) === 0)
    throw new UsageError(`${flag} "${value}" is not a Kubernetes quantity above zero (e.g. 500m, 1, 512Mi)`);
  return value;
}

export function parseManifestArgs(argv: string[], scenarios: readonly string[]): ManifestArgs {
  const values: Partial<Record<ValueFlag, string>> = {};
  const positional: string[] = [];
  let separate = false;
  let secret = true;
  for (let i = 0; i < argv.length; i++) {
    const [arg, inline] = splitInlineValue(argv[i]!);
    if (arg === '--separate') separate = true;
    else if (arg === '--no-secret') secret = false;
    else if ((VALUE_FLAGS as readonly string[]).includes(arg)) {
      const value = inline ?? argv[++i];
      // `--cpu --separate`: the next flag is not a value, the value is missing.
      if (value === undefined || value === '' || (inline === undefined && value.startsWith('--')))
        throw new UsageError(`${arg} needs a value`);
      values[arg as ValueFlag] = value;
    } else if (arg.startsWith('-')) throw new UsageError(`unknown flag ${arg}; ${USAGE}`);
    else positional.push(arg);
  }
  if (positional.length !== 1) throw new UsageError(`name one scenario; ${USAGE}`);
  // Accept the bundle path too (dist/k6/scenarios/x.js): people copy it from the run scripts.
  const scenario = positional[0]!.replace(/^(\.\/)?(dist\/k6\/|k6\/)?/, '').replace(/\.(js|ts)$/, '');
  if (!scenarios.includes(scenario))
    throw new UsageError(`unknown scenario "${positional[0]}"; one of: ${scenarios.join(', ')}`);

  const parallelismText = values['--parallelism'];
  if (parallelismText === undefined) throw new UsageError(`--parallelism is required; ${USAGE}`);
  const parallelism = Number(parallelismText);
  if (!/^\d+$/.test(parallelismText) || parallelism < 1 || parallelism > MAX_PARALLELISM)
    throw new UsageError(
      `--parallelism "${parallelismText}" must be a whole number from 1 to ${MAX_PARALLELISM}`,
    );

  const profile = values['--profile'];
  if (profile === undefined) throw new UsageError(`--profile is required; ${USAGE}`);
  // Unlike LT_PROFILE (where an unknown name runs smoke, as the spec says), a manifest is written
  // once and run on a cluster: a typo is refused here, not discovered after the pods ran smoke.
  if (!(PROFILE_NAMES as readonly string[]).includes(profile))
    throw new UsageError(`--profile "${profile}" is not a profile (${PROFILE_NAMES.join(', ')})`);

  const cleanup = values['--cleanup'];
  if (cleanup !== undefined && cleanup !== 'post')
    throw new UsageError(
      `--cleanup "${cleanup}": the operator knows only "post" (delete the run's pods after it)`,
    );

  const script = values['--script'] ?? DEFAULTS.script;
  if (script !== 'configmap' && script !== 'image')
    throw new UsageError(
      `--script "${script}" must be configmap (bundle in a ConfigMap) or image (bundle in the image)`,
    );

  const image = values['--image'] ?? DEFAULTS.image;
  if (!/^[\w.:/@-]+$/.test(image)) throw new UsageError(`--image "${image}" is not an image reference`);

  const testid = values['--testid'];
  if (testid !== undefined && !/^[\w.:-]+$/.test(testid))
    throw new UsageError(`--testid "${testid}" may hold letters, digits and . _ : - only`);

  return {
    scenario,
    parallelism,
    profile: profile as ProfileName,
    separate,
    cleanup: cleanup as 'post' | undefined,
    script,
    image,
    namespace: values['--namespace'] && dnsLabel(values['--namespace'], '--namespace'),
    baseUrl: url(values['--base-url'] ?? DEFAULTS.baseUrl, '--base-url'),
    clinicUrl: url(values['--clinic-url'] ?? DEFAULTS.clinicUrl, '--clinic-url'),
    clinicSecureUrl: url(values['--clinic-secure-url'] ?? DEFAULTS.clinicSecureUrl, '--clinic-secure-url'),
    influxdbUrl: url(values['--influxdb-url'] ?? DEFAULTS.influxdbUrl, '--influxdb-url'),
    cpu: quantity(values['--cpu'] ?? DEFAULTS.cpu, '--cpu'),
    memory: quantity(values['--memory'] ?? DEFAULTS.memory, '--memory'),
    testid,
    resultsClaim: values['--results-claim'] && dnsLabel(values['--results-claim'], '--results-claim'),
    secret,
    outDir: values['--out'],
  };
}
