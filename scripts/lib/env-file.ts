// Makes sure the services and the suite agree on credentials without any secret in source:
// fills a git-ignored .env with random values for the secrets that are neither in the
// environment nor already in the file, and shows a generated demo password once.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

/** A variable the lab needs, and how to make a value when nobody gave one. */
interface Needed {
  name: string;
  comment: string;
  make(): string;
  /** Shown once on the console so the user can log in to the pages by hand. */
  show?: boolean;
  /** The compose volume that keeps the value it was first started with (InfluxDB, Grafana). */
  volume?: string;
}

const secret =
  (bytes = 18) =>
  () =>
    randomBytes(bytes).toString('base64url');

export const NEEDED: readonly Needed[] = [
  {
    name: 'DEMO_EMAIL',
    comment: 'Login identity of the sandbox and the suite',
    make: () => 'demo@loadlab.local',
  },
  { name: 'DEMO_PASSWORD', comment: 'Login secret of the sandbox and the suite', make: secret(), show: true },
  { name: 'SANDBOX_TOKEN_SECRET', comment: 'HMAC key signing sandbox tokens', make: secret(32) },
  { name: 'ADMIN_USER', comment: 'First admin of the secured clinic (9967)', make: () => 'admin' },
  { name: 'ADMIN_PASSWORD', comment: 'Password of that admin', make: secret(), show: true },
  // The compose stack (npm run docker:up / grafana:up) refuses to start without these.
  {
    name: 'POSTGRES_PASSWORD',
    comment: "Password of the clinics' PostgreSQL (stack)",
    make: secret(),
    volume: 'loadlab_postgres-data',
  },
  {
    name: 'INFLUXDB_ADMIN_PASSWORD',
    comment: 'InfluxDB 2.x initial admin password (stack)',
    make: secret(),
    volume: 'loadlab_influxdb-data',
  },
  {
    name: 'INFLUXDB_ADMIN_TOKEN',
    comment: 'InfluxDB 2.x admin token: Grafana datasource and the k6 image (stack)',
    make: secret(32),
    volume: 'loadlab_influxdb-data',
  },
  {
    name: 'GRAFANA_ADMIN_PASSWORD',
    comment: 'Grafana admin password (stack)',
    make: secret(),
    show: true,
    volume: 'loadlab_grafana-data',
  },
];

export interface EnsureResult {
  path: string;
  added: { name: string; value: string; show: boolean }[];
  /** Secrets not generated because a stack volume already holds the value it was set up with. */
  kept: { name: string; volume: string }[];
}

/** Whether the container engine has this volume (false when no engine answers). */
export function dockerVolumeExists(name: string): boolean {
  return spawnSync('docker', ['volume', 'inspect', name], { stdio: 'ignore', timeout: 10_000 }).status === 0;
}

/**
 * Adds to `path` every needed variable missing from both `env` and the file; never rewrites a line. A
 * stack secret whose volume exists is not generated: InfluxDB and Grafana took their value when that
 * volume was new and would answer 401 to a new one.
 */
export function ensureEnvFile(
  path: string,
  env: NodeJS.ProcessEnv,
  volumeExists: (name: string) => boolean = dockerVolumeExists,
): EnsureResult {
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const inFile = parseEnv(existing);
  const missing = NEEDED.filter((v) => !env[v.name] && !inFile[v.name]);
  const kept = missing
    .filter((v) => v.volume !== undefined && volumeExists(v.volume))
    .map((v) => ({ name: v.name, volume: v.volume! }));
  const added = missing
    .filter((v) => !kept.some((k) => k.name === v.name))
    .map((v) => ({
      name: v.name,
      value: v.make(),
      show: v.show === true,
    }));
  if (added.length === 0) return { path, added, kept };

  const header = existing
    ? ''
    : '# Created by `npm run env:init`; git-ignored. See .env.example for every variable.\n';
  const separator = existing && !existing.endsWith('\n') ? '\n' : '';
  const lines = added.map((a) => {
    const comment = NEEDED.find((n) => n.name === a.name)?.comment ?? '';
    return `# ${comment}\n${a.name}=${a.value}\n`;
  });
  writeFileSync(path, existing + separator + header + lines.join(''), { mode: 0o600 });
  chmodSync(path, 0o600);
  return { path, added, kept };
}

/**
 * What to tell the user about the variables just added: names, and where the passwords people type
 * are. Their values only when asked (`reveal`, --show-secrets): a console ends up in captured logs.
 */
export function describeAdded(result: EnsureResult, reveal = false): string[] {
  if (result.added.length === 0) return [];
  const typed = result.added.filter((a) => a.show);
  const where = typed.length
    ? reveal
      ? typed.map((a) => `generated ${a.name}=${a.value}  (it stays in ${result.path})`)
      : [
          `the passwords to log in with (${typed.map((a) => a.name).join(', ')}) are in ${result.path}; ` +
            `grep ${typed[0]?.name} ${result.path} shows one (--show-secrets prints them here)`,
        ]
    : [];
  return [
    `added ${result.added.map((a) => a.name).join(', ')} to ${result.path} (git-ignored, mode 600)`,
    ...where,
  ];
}

/** One line per secret left out, with the two ways on. */
export function describeKept(result: EnsureResult): string[] {
  return result.kept.map(
    (k) =>
      `${k.name} is missing from ${result.path}, but volume ${k.volume} was set up with an earlier value: ` +
      'put that value back, or run npm run docker:reset (deletes the stack data) and then env:init again',
  );
}

/** What `npm run env:init` does. */
export function ensureEnvCommand(): void {
  const args = process.argv.slice(2);
  const reveal = args.includes('--show-secrets');
  const path = args.find((a) => a !== '--show-secrets') ?? '.env';
  const result = ensureEnvFile(path, process.env);
  for (const line of describeKept(result)) console.error(`env: ${line}`);
  if (result.kept.length > 0) process.exitCode = 2;
  if (result.added.length === 0 && result.kept.length === 0) {
    console.log(`env: ${path} and the environment already hold every credential the lab needs`);
    return;
  }
  for (const line of describeAdded(result, reveal)) console.log(`env: ${line}`);
}
