// The main job of the quick start: make sure credentials exist, start the services, run the
// seven-scenario smoke report (test:report builds the suite first), stop the services. Exits with the report's code,
// so a crossed threshold makes the whole command fail, as a CI gate should.
import { spawn, type ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import { loadDotEnv } from '@loadlab/services/start-and-stop';
import { describeAdded, describeKept, ensureEnvFile } from './lib/env-file.js';
import { waitForHealthy } from '../devkit/wait-healthy.js';

const SANDBOX_HEALTH = 'http://127.0.0.1:5050/health';
const CLINIC_HEALTH = [
  'http://127.0.0.1:9966/petclinic/actuator/health',
  'http://127.0.0.1:9967/petclinic/actuator/health',
];

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

async function isUp(url: string): Promise<boolean> {
  return waitForHealthy([url], { timeoutMs: 500 }).then(
    () => true,
    () => false,
  );
}

async function startServices(): Promise<ChildProcess | undefined> {
  if (await isUp(SANDBOX_HEALTH)) {
    console.log('lab: services already answer on 5050; using them');
    return undefined;
  }
  console.log('lab: starting sandbox (5050) and clinic (9966, 9967)');
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start-services.ts'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`services exited early with code ${code}`))),
  );
  await Promise.race([waitForHealthy([SANDBOX_HEALTH, ...CLINIC_HEALTH], { timeoutMs: 30_000 }), exited]);
  return child;
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const USAGE = 'usage: npm run lab [-- --quick] [--show-secrets]';

async function main(): Promise<number> {
  let quick: boolean;
  let showSecrets: boolean;
  try {
    // A typo such as --quik must not silently start the 5-minute run.
    ({
      values: { quick = false, 'show-secrets': showSecrets = false },
    } = parseArgs({
      args: process.argv.slice(2),
      options: { quick: { type: 'boolean' }, 'show-secrets': { type: 'boolean' } },
    }));
  } catch (e) {
    console.error(`lab: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const env = ensureEnvFile('.env', process.env);
  // Where the generated passwords are, not what they are: the console ends up in captured logs.
  for (const line of describeAdded(env, showSecrets)) console.log(`lab: ${line}`);
  for (const line of describeKept(env)) console.warn(`lab: ${line}`);
  loadDotEnv();

  const services = await startServices();
  const onSignal = () => void stop(services).then(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const code = await run('npm', ['run', '--silent', 'test:report', ...(quick ? ['--', '--quick'] : [])]);
    console.log(
      `lab: report in results/report/index.html and results/REPORT.md (${code === 0 ? 'PASS' : 'FAIL'})`,
    );
    return code;
  } finally {
    await stop(services);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`lab: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
