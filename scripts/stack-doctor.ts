// `npm run stack:doctor`: what the compose stack needs on this machine, one line per problem with its fix.
// Exit: 0 nothing missing; 1 problems; 2 usage; 3 no container engine answers (as compose.sh).
//   stack:doctor            every check (engine, compose, ports, .env secrets, secrets vs volumes, bundles)
//   stack:doctor secrets    only whether the running InfluxDB and Grafana take the secrets in .env
//                           (compose.sh runs this after grafana-up and before a stream)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { isEntryPoint } from '@loadlab/services/start-and-stop';

export interface Problem {
  problem: string;
  fix: string;
}

/** docker compose features the stack uses: `depends_on.required` (2.20) and `run --build`. */
export const MIN_COMPOSE = [2, 20, 0];
export const STACK_PORTS = [3000, 8086, 9090, 5050, 9966, 9967];
const RESET = 'put the old value back in .env, or run npm run docker:reset (deletes the stack data)';

function docker(args: string[]): { ok: boolean; out: string } {
  const result = spawnSync('docker', args, { encoding: 'utf8', timeout: 15_000 });
  return { ok: result.status === 0, out: (result.stdout ?? '').trim() };
}

/**
 * The exit code of every command that needs a container engine and finds none (stack/compose.sh,
 * scripts/run-k6.sh with LT_ENGINE=docker, stack:doctor): the cause is the same, so is the code.
 */
export const NO_ENGINE_EXIT = 3;
const NO_ENGINE = "no container engine answers ('docker info' failed)";
const checkEngineProblem = (p: Problem) => p.problem === NO_ENGINE;

export function checkEngine(): Problem[] {
  if (docker(['info']).ok) return [];
  return [{ problem: NO_ENGINE, fix: 'start Docker, or use npm run stack:native' }];
}

export function checkCompose(version = docker(['compose', 'version', '--short'])): Problem[] {
  if (!version.ok)
    return [{ problem: 'docker compose is not installed', fix: 'install the Compose v2 plugin' }];
  const parts = version.out
    .replace(/^v/, '')
    .split('.')
    .map((part) => parseInt(part, 10) || 0);
  const differs = MIN_COMPOSE.findIndex((min, i) => (parts[i] ?? 0) !== min);
  if (differs >= 0 && (parts[differs] ?? 0) < MIN_COMPOSE[differs]!) {
    return [
      {
        problem: `docker compose ${version.out} is older than ${MIN_COMPOSE.join('.')}`,
        fix: 'update Docker Compose',
      },
    ];
  }
  return [];
}

/** Whether one address can listen on the port; a host without IPv6 has nothing on `::` to collide with. */
function bindable(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code === 'EAFNOSUPPORT' || error.code === 'EADDRNOTAVAIL'),
    );
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/**
 * Free for the engine's published port: a program on [::1] (Node's `localhost` on many machines) leaves
 * 0.0.0.0 bindable on Linux, and macOS lets 0.0.0.0 share a port with 127.0.0.1, so all three are tried.
 */
export async function portFree(port: number): Promise<boolean> {
  for (const host of ['0.0.0.0', '::', '127.0.0.1']) if (!(await bindable(port, host))) return false;
  return true;
}

/** Ports the stack publishes that another program holds (the running stack's own are fine). */
export async function checkPorts(
  ports: number[],
  free: (port: number) => Promise<boolean>,
  stackRunning: boolean,
): Promise<Problem[]> {
  if (stackRunning) return [];
  const taken = [];
  for (const port of ports) if (!(await free(port))) taken.push(port);
  return taken.map((port) => ({
    problem: `port ${port} is taken by another program`,
    fix: `stop it (e.g. a native npm run start:services or stack:native), or change the published port in stack/docker-compose.yml`,
  }));
}

/** Every `${VAR:?...}` the compose file requires, missing from both the environment and .env. */
export function checkSecrets(composeText: string, env: Record<string, string | undefined>): Problem[] {
  const required = [...new Set([...composeText.matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]!))];
  const pinned = new Set(['K6_VERSION', 'XK6_VERSION', 'XK6_OUTPUT_INFLUXDB_VERSION']); // compose.sh sets these
  return required
    .filter((name) => !pinned.has(name) && !env[name]?.trim())
    .map((name) => ({ problem: `${name} is not set in .env`, fix: 'run npm run env:init' }));
}

/** Asks the running InfluxDB and Grafana whether they take the token and password in .env. */
export async function checkSecretsMatch(env: Record<string, string | undefined>): Promise<Problem[]> {
  const problems: Problem[] = [];
  const influx = env.LOADLAB_STACK_INFLUXDB_URL ?? 'http://127.0.0.1:8086';
  const grafana = env.LOADLAB_STACK_GRAFANA_URL ?? 'http://127.0.0.1:3000';
  const answer = async (url: string, headers: Record<string, string>) =>
    fetch(url, { headers, signal: AbortSignal.timeout(5000) }).then(
      (r) => r.status,
      () => undefined,
    );
  const influxStatus = await answer(`${influx}/api/v2/buckets?limit=1`, {
    Authorization: `Token ${env.INFLUXDB_ADMIN_TOKEN ?? ''}`,
  });
  if (influxStatus === 401) {
    problems.push({
      problem:
        'InfluxDB answers 401 to INFLUXDB_ADMIN_TOKEN from .env: its volume was set up with an earlier token',
      fix: RESET,
    });
  }
  const basic = Buffer.from(
    `${env.GRAFANA_ADMIN_USER ?? 'admin'}:${env.GRAFANA_ADMIN_PASSWORD ?? ''}`,
  ).toString('base64');
  const grafanaStatus = await answer(`${grafana}/api/user`, { Authorization: `Basic ${basic}` });
  if (grafanaStatus === 401) {
    problems.push({
      problem:
        'Grafana answers 401 to GRAFANA_ADMIN_PASSWORD from .env: its volume was set up with an earlier password',
      fix: RESET,
    });
  }
  return problems;
}

function newestMtime(dir: string, suffix: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix) && !entry.name.endsWith('.test.ts'))
    .reduce((newest, entry) => Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs), 0);
}

/** dist/k6 and the k6 image against the newest suite source. */
export function checkBundles(root: string, imageCreated: number | undefined): Problem[] {
  const source = newestMtime(join(root, 'k6'), '.ts');
  const problems: Problem[] = [];
  const bundles = newestMtime(join(root, 'dist/k6'), '.js');
  if (bundles < source) {
    problems.push({
      problem: 'dist/k6 is older than the suite sources in k6/',
      fix: 'run npm run build:k6 (every npm test:* does)',
    });
  }
  if (imageCreated !== undefined && imageCreated < source) {
    problems.push({
      problem: 'the loadlab-k6:local image predates your k6/ changes',
      fix: 'run npm run grafana:build (the test:*:grafana and docker:* commands rebuild it too)',
    });
  }
  return problems;
}

export function format(problems: Problem[]): string[] {
  return problems.map((p) => `stack:doctor: ${p.problem}; ${p.fix}`);
}

function environment(root: string): Record<string, string | undefined> {
  const file = join(root, '.env');
  return { ...(existsSync(file) ? parseEnv(readFileSync(file, 'utf8')) : {}), ...process.env };
}

async function main(): Promise<void> {
  const root = process.cwd();
  const env = environment(root);
  const mode = process.argv[2] ?? 'all';
  if (mode !== 'all' && mode !== 'secrets') {
    console.error('usage: npm run stack:doctor [-- secrets]');
    process.exit(2);
  }
  const problems: Problem[] = [];
  if (mode === 'all') {
    const engine = checkEngine();
    problems.push(...engine);
    if (engine.length === 0) {
      problems.push(...checkCompose());
      const running = docker(['compose', '-p', 'loadlab', 'ps', '-q']).out !== '';
      problems.push(...(await checkPorts(STACK_PORTS, (port) => portFree(port), running)));
    }
    problems.push(...checkSecrets(readFileSync(join(root, 'stack/docker-compose.yml'), 'utf8'), env));
    const image =
      engine.length === 0
        ? docker(['image', 'inspect', '--format', '{{.Created}}', 'loadlab-k6:local'])
        : undefined;
    problems.push(...checkBundles(root, image?.ok ? Date.parse(image.out) : undefined));
  }
  problems.push(...(await checkSecretsMatch(env)));
  for (const line of format(problems)) console.error(line);
  // One exit code per cause, the same in every command (README): no engine is 3, as in compose.sh.
  if (mode === 'all' && problems.some((p) => checkEngineProblem(p))) process.exit(NO_ENGINE_EXIT);
  if (problems.length > 0) process.exit(1);
  if (mode === 'all') console.log('stack:doctor: the stack has what it needs here');
}

if (isEntryPoint(import.meta.url)) await main();
